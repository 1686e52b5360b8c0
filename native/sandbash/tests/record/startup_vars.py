"""Variables bash sets when it starts: BASH_VERSION, BASH_VERSINFO (a
readonly array), HOSTTYPE, MACHTYPE, OSTYPE, and the readonly integers UID,
EUID and PPID (values vary: only their attributes and presence are
compared); they are set, listed and gated on like any variable."""

tools("grep", "cut")

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

group("Variables bash computes, seen as variables")
t("test_v_sees_them_set", r'''for v in BASH BASHOPTS BASHPID BASH_ALIASES BASH_ARGV0 BASH_COMMAND BASH_SUBSHELL DIRSTACK EPOCHREALTIME EPOCHSECONDS LINENO RANDOM SECONDS SHELLOPTS SRANDOM; do [[ -v $v ]] && printf '%s ' "$v"; test -v $v && printf 't '; done; echo; alias ll=ls; [[ -v BASH_ALIASES ]] || echo "no key 0"''')
t("declare_p_by_name", r'''declare -p BASH_ARGV0 BASH_SUBSHELL LINENO DIRSTACK; alias ll=ls; declare -p BASH_ALIASES; declare -p SECONDS RANDOM BASHPID SRANDOM EPOCHSECONDS | cut -c1-12''')
e("unset_makes_them_plain", r'''unset SECONDS; declare -p SECONDS; [[ -v SECONDS ]] || echo gone; SECONDS=x; declare -p SECONDS''')
t("bash_argv0_is_dollar_zero", r'''echo "$BASH_ARGV0"; BASH_ARGV0=foo; echo "$0 $BASH_ARGV0"; f() { echo "$0"; }; f; (BASH_ARGV0=sub; echo $0); echo $0''')
t("bash_loadables_path", r'''declare -p BASH_LOADABLES_PATH; compgen -v BASH_A; compgen -v BASH_L''')
