"""Variables bash sets when it starts: BASH_VERSION, BASH_VERSINFO (a
readonly array), HOSTTYPE, MACHTYPE, OSTYPE, and the readonly integers UID,
EUID and PPID (values vary: only their attributes and presence are
compared); they are set, listed and gated on like any variable."""

tools("grep")

group("Startup variables")
t("version_values", r'''declare -p BASH_VERSION BASH_VERSINFO HOSTTYPE MACHTYPE OSTYPE; echo "${BASH_VERSINFO[0]} ${#BASH_VERSINFO[@]}"''')
t("gating_on_the_version", r'''if (( BASH_VERSINFO[0] >= 4 )); then echo new; fi; [[ ${BASH_VERSION%%.*} -ge 5 ]] && echo five; case $BASH_VERSION in 5.*) echo v5;; esac''')
t("they_are_set_and_listed", r'''[[ -v BASH_VERSION ]] && echo set; echo ${!BASH_VERSI*}; set | grep -c '^BASH_VERSION='; declare -p | grep -c BASH_VERSINFO; compgen -v OSTYP''')
e("readonly_ones", r'''BASH_VERSINFO[0]=9; echo $?; UID=3; echo $?; EUID=3; echo $?; PPID=2; echo $?; unset UID; echo $?''')
t("attributes", r'''echo "${UID@a} ${EUID@a} ${PPID@a} ${BASH_VERSINFO@a}"''')
t("a_nested_shell_has_them", r'''bash -c 'echo "${BASH_VERSINFO[1]} ${HOSTTYPE}"; declare -p BASH_VERSION' ''')
t("unset_and_assigned", r'''unset BASH_VERSION; echo "[$BASH_VERSION]"; HOSTTYPE=other; echo "$HOSTTYPE"''')

group("Computed variables and the call stack's arrays")
t("listed_with_the_set_ones", r'''echo ${!RAN*} ${!SEC*} ${!EPOCH*} ${!LINE*} ${!BASH_S*}; compgen -v SHELL; compgen -v DIRS; compgen -v BASHP''')
t("call_stack_arrays_start_empty", r'''declare -p BASH_LINENO BASH_SOURCE BASH_ARGV BASH_ARGC FUNCNAME; f() { declare -p BASH_SOURCE BASH_LINENO; }; f; declare -p BASH_SOURCE BASH_LINENO; echo "${BASH_SOURCE[0]-unset} ${#BASH_SOURCE[@]}"''')

group("SECONDS")
t("counts_from_the_start_and_from_an_assignment", r'''(( SECONDS >= 0 && SECONDS < 100 )) && echo start; sleep 1; (( SECONDS >= 1 )) && echo counted; SECONDS=1000; (( SECONDS >= 1000 && SECONDS < 1100 )) && echo assigned; (( $(echo $SECONDS) >= 1000 )) && echo in-subshell''')
t("unset_makes_it_plain", r'''unset SECONDS; echo "[$SECONDS]"; SECONDS=x; echo $SECONDS''')

group("SHELLOPTS and BASHOPTS are readonly variables")
t("listed_by_declare_readonly_and_set", r'''declare -p SHELLOPTS BASHOPTS; set -e; shopt -s extglob; declare -p SHELLOPTS BASHOPTS; readonly -p | grep OPTS; set | grep -E '^(BASHOPTS|SHELLOPTS)='; declare | grep -c OPTS''')
e("cannot_be_assigned_or_unset", r'''SHELLOPTS=x
echo "st=$? ${SHELLOPTS:0:5}"
unset BASHOPTS; echo "st=$?" ${BASHOPTS:0:12}
read SHELLOPTS <<< x; echo "st=$?"
declare BASHOPTS=1; echo "st=$?"
f() { local SHELLOPTS; echo "st=$?"; }; f
readonly SHELLOPTS; echo "st=$?"; declare -p SHELLOPTS''')
