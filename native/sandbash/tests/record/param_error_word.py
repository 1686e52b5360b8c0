"""${x?word} / ${x:?word}: the message's word is expanded with $? already 1, the results
of its expansions split and joined by one space; what the error ends (the shell, a
subshell, a command substitution) and the status."""

group("error word")
e("error_word_status_is_one", r'''( true; echo ${v?$?} ); ( false; echo ${v:?$?} ); echo "rc=$?"''')
e("error_word_is_split", r'''( x="a   b"; echo ${v?$x} ); ( x="a   b"; echo "${v?$x}" ); ( echo ${v?a   b} )
( x=" "; echo ${v?$x} ); ( x=" "; echo ${v?x$x} ); ( x="*"; echo ${v?$x} ); ( x=""; echo ${v?$x} )
( x=''; echo ${c?${x/%/ }} ); ( echo ${v?} ); ( echo ${v:?} ); ( x=; echo ${x:?} )''')
group("what the error ends")
e("error_in_subshell_and_loops", r'''( echo ${x:?msg}; echo in ); echo "rc=$?"
( for i in 1 2; do echo ${x:?msg}; done; echo after ); echo "rc=$?"
( f(){ echo ${x:?msg}; }; f; echo after ); echo "rc=$?"
echo $( echo ${x:?msg}; echo in ); echo "rc=$?"
echo ${x:?m} | cat; echo "rc=$?"
( trap 'echo t' EXIT; echo ${x:?m}; echo in ); echo "rc=$?"''')
e("error_ends_the_shell", r'''for i in 1 2; do echo ${x:?msg}; echo in; done; echo "rc=$?"
echo not-reached''')
e("error_in_function_ends_the_shell", r'''trap 'echo t' EXIT; f(){ echo ${x:?msg}; echo in; }; f; echo "rc=$?"
echo not-reached''')
e("error_under_errexit_exits_1", r'''f(){ :; }; set -e; f ${c:?x}; echo not-reached''')
e("nounset_error_under_errexit_exits_1", r'''set -e; set -u; echo $c; echo not-reached''')

group("transforms under set -u")
e("transform_of_unset_is_unbound", r'''set -u; ( echo "${x@Q}"; echo in ); echo "rc=$?"
( echo "${1@P}"; echo in ); echo "rc=$?"
( echo "${x@a}"; echo in ); echo "rc=$?"
( echo "${x@U}"; echo in ); echo "rc=$?"
a=(); echo "[${a[@]@Q}]" "[${@@Q}]" "[${!x@}]"
echo "${x@K}"; echo not-reached''')
