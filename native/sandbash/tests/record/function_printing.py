"""Functions printed back (`declare -f`, `typeset -f`, `type`, `command -V`):
bash re-prints a body from its parse tree (print_cmd.c), with its layout,
not the text as written; printed text fed to `eval` defines the same function."""

tools("tail")

group("Layout of simple bodies")
t("print_one_command", r'''f() { echo hi; }; declare -f f''')
t("print_list_and_pipes", r'''f() { a=1; b="x y"; echo "$a" '$b' | tr a b; }; declare -f''')
t("print_keyword_form", r'''function f { echo kw; }; typeset -f f''')
t("print_reserved_name_gets_function", r'''function if { :; }; declare -f if''')
t("print_comments_dropped", r'''f() {
  # comment
  echo a # trailing
}
declare -f f''')
t("print_and_or_bang_async", r'''f() { ls |& cat; ! true; a && b || c; sleep 1 & echo bg; echo last & }; declare -f f''')
t("print_time", r'''f() { time sleep 0; time -p ls | wc; }; declare -f f''')
t("print_words_as_written", r'''f() { echo "${x:-d}" ${x#*/} $(date) `pwd` $((1+2)) <(ls) >(cat) "a\"b"; }; declare -f f''')
t("print_ansi_c_decoded", r'''f() { echo $'a\'b' x$'\t'y "$'q'"; }; declare -f f''')
t("print_assignments", r'''f() { x=(1 2 3); local -A m=([a]=1); y=2 env; }; declare -f f''')

group("Compound commands")
t("print_if_elif_else", r'''f() { if [ -n "$1" ]; then echo yes; elif test x = y; then echo mid; else echo no; fi; }; declare -f f''')
t("print_for_in_and_bare", r'''f() { for x in a b "c d"; do echo $x; done; for y; do :; done; }; declare -f f''')
t("print_arith_for", r'''f() { for (( i = 0 ; i < 3 ; i++ )); do echo $i; done; for ((;;)); do break; done; }; declare -f f''')
t("print_while_until", r'''f() { while read -r l; do echo "$l"; done < file; until false; do break; done; }; declare -f f''')
t("print_select", r'''f() { select s in a "b c"; do break; done; select t; do :; done; }; declare -f f''')
t("print_case_terminators", r'''f() { case $1 in a|b) echo ab;; c) echo c;& d) echo d;;& *) ;; esac; case x in esac; }; declare -f f''')
t("print_group_subshell", r'''f() { ( cd /tmp; ls ); { echo g; echo h; } > out 2>&1; }; declare -f f''')
t("print_cond_and_arith", r'''f() { [[ -n $x && $y == z* || ! -f /etc ]] && echo ok; [[ $a = b ]]; [[ ( a < b ) ]]; (( x = 1 + 2 )); }; declare -f f''')
t("print_nested_function", r'''f() { g() { echo inner; }; g; }; declare -f f''')
t("print_subshell_body", r'''f() ( echo subshell ); declare -f f''')
t("print_body_redirection", r'''f() { echo redir; } > /tmp/out; g() ( pwd ) 2>&1; declare -f''')
t("print_nested_loops", r'''f() { while true; do if x; then y; fi; for i in 1; do { echo $i; }; done; done & wait; }; declare -f f''')

group("Redirections and here-documents")
t("print_redirections", r'''f() { echo a >> f; echo b < in; exec 3<> f; echo c >&2; echo d 2> /dev/null; echo e &> all; echo f >| g; >file; <in cat; cat <&3; exec 3>&-; }; declare -f f''')
t("print_named_fd", r'''f() { exec {fd}> /tmp/x; echo hi >&$fd; exec {fd}>&-; }; declare -f f''')
t("print_heredoc_and_herestring", r'''f() { cat <<EOF
hello $x
EOF
cat <<<"here string"; echo done; }
declare -f f''')
t("print_heredoc_quoted_and_dash", '''f() { cat <<-EOF
\ttabbed
\tEOF
cat <<'Q'
lit $x
Q
}
declare -f f''')
t("print_heredoc_in_pipe_and_list", r'''f() { cat <<EOF | tr a b
abc
EOF
cat <<A && echo ok
x
A
echo start; cat <<A <<B
one
A
two
B
}
declare -f f''')

group("Where functions are printed")
t("print_type", r'''f() { echo hi; }; type f''')
t("print_command_upper_v", r'''f() { for i in 1 2; do echo $i; done; }; command -V f''')
t("print_declare_upper_f", r'''f() { :; }; g() { :; }; declare -F; declare -F f''')

group("Printed text evaluates to the same function")
t("print_eval_round_trip", r'''f() { if a; then b; elif c; then d; fi; for ((i=0;i<2;i++)); do echo "$i"; done | cat; case $x in a|b) :;; esac; }
g() { cat <<EOF; echo "x$1"
body $1
EOF
}
a=$(declare -f); unset -f f g; eval "$a"; [ "$a" = "$(declare -f)" ] && echo same; g 7''')

group("Exported functions (export -f)")
t("export_f_reaches_child_bash", r'''h() { echo "H $1"; }; export -f h; bash -c 'h 1'; h() { echo redefined; }; bash -c h; g() { :; }; bash -c g 2>/dev/null; echo "g $?"''')
t("export_f_listings", r'''f() { echo F; }; g() { :; }; export -f f; export -f; echo ---; declare -fx; echo ---; declare -F; echo ---; declare -f''')
t("export_nf_and_unset", r'''f() { :; }; export -f f; export -nf f; declare -F; declare -fx f; declare -F f; unset -f f; f() { :; }; declare -F''')
e("export_f_not_a_function", r'''export -f nosuch; echo $?''')
t("set_lists_functions", r'''f() { echo hi; }; set | tail -4''')

group("declare -F and -f with names")
t("in_the_order_named", r'''f() { :; }; h() { :; }; declare -f h f; declare -F h f; declare -F h nosuch f; echo $?; declare -F h h; typeset -f nosuch; echo $?''')
t("extdebug_shows_line_and_file", "printf 'myfunc() {\\n  echo hi\\n}\\n\\n g() { :; }\\n' > funcs.sh; shopt -s extdebug\nf() { :; }\n\n  h()\n{ :; }\ndeclare -F f h; . ./funcs.sh; declare -F myfunc g; declare -F; typeset -F f; eval 'k() { :; }'; declare -F k; shopt -u extdebug; declare -F f")
t("extdebug_in_a_child_shell", r'''f() { :; }; export -f f; bash -c 'shopt -s extdebug; declare -F f'; shopt -s extdebug; bash -c 'g() { :; }; declare -F g' ''')

group("Command substitutions are printed as bash's parser re-prints them")
t("blanks_comments_and_newlines", r'''f() { x=$( echo hi ); y=$(echo   hi;  echo  b); z="$(  echo a |   cat )"; a=$(echo a
echo b); b=$(

echo x


echo y
); c=$(echo a # comment
); }
declare -f f''')
t("compound_commands_inside", r'''f() { d=$(for i in 1; do :; done
echo z); e=$(if :; then
  echo a
  echo b
fi); h=$( (echo) ); i=$({ echo; }); j=$(echo a && echo b || echo c); k=$(! true | false); l=$(sleep 0 & echo x); m=$(   ); n=$( case x in x) echo;; y) :;; esac ); }
type f''')
t("nested_and_in_operands", r'''f() { g=$(( 1 + 2 )); o=$(echo "$(echo  in)" `echo  q`); p=${q:-$(echo   r)}; s="${t:+ $(echo   u) }"; w=$(echo a; ); v=$(cat <<EOF
hi
EOF
); }
declare -f f''')
t("in_bash_command", r'''trap 'echo "BC: $BASH_COMMAND"' DEBUG
x=$( echo   hi;echo b )
echo "$(  echo  a  )" > /dev/null''')

group("Locale strings in listings")
t("locale_translation_quotes_print_as_double_quotes", r'''f() { echo $"y" "a$"b $"x $HOME" '$"q"' \$"z"; }; type f; declare -f f''')
