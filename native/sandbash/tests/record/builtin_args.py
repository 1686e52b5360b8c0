"""Builtins as bash checks and reports their arguments: `getopts` (silent
mode, missing arguments, OPTERR, OPTIND past the end or reset, OPTARG after
the last option), `exec` options (`-a`, `-c`, `--`, bad ones), `enable`
listings, `cd` (-L/-P, `..` after a missing name, CDPATH, OLDPWD/PWD
exported, bad options), `caller`, and `$_` after assignment-only commands."""

group("getopts")
t("getopts_loop_and_after", '''f() {
  while getopts "ab:" o "$@"; do echo "o=$o OPTARG=${OPTARG-unset} OPTIND=$OPTIND OPTERR=$OPTERR"; done
  echo "end o=$o OPTARG=${OPTARG-unset} OPTIND=$OPTIND rc=$?"
}
f -a -b val rest
OPTIND=1; f -ab x -- -a''')
e("getopts_errors_loud_and_silent", '''getopts "a:" o -a; echo "rc=$? o=$o OPTARG=${OPTARG-unset}"
OPTIND=1; getopts ":a:" o -a; echo "rc=$? o=$o OPTARG=${OPTARG-unset}"
OPTIND=1; getopts "a" o -z; echo "rc=$? o=$o OPTARG=${OPTARG-unset}"
OPTIND=1; getopts ":a" o -z; echo "rc=$? o=$o OPTARG=${OPTARG-unset}"
OPTIND=1; OPTERR=0; getopts "a" o -z; echo "rc=$? o=$o OPTARG=${OPTARG-unset}"''')
t("getopts_optind_past_end", '''OPTIND=100; getopts "a:b:" v -a value; echo "rc=$? v=$v OPTARG=${OPTARG-UNSET} OPTIND=$OPTIND"''')
t("getopts_optind_zero_resets_cluster", '''getopts "abc" v -abc; echo "first $v"; OPTIND=0; getopts "abc" v -abc; echo "again $v $OPTIND"''')
t("getopts_cluster_with_argument", '''while getopts "ab:c" v -acbVAL -c; do echo "$v ${OPTARG-} $OPTIND"; done''')

group("exec")
t("exec_a_sets_argv0", '''exec -a shellname bash -c 'echo "0: $0"' ''')
t("exec_c_clears_environment", '''export myvar=value; exec -c bash -c 'echo "myvar: [${myvar}]"' ''')
t("exec_double_dash", '''exec -- cat <<< hi''')
e("exec_bad_options", '''(exec -x); echo "rc=$?"; (exec -a); echo "rc=$?"''')
t("exec_without_command_keeps_shell", '''exec --; echo still here''')

group("enable")
t("enable_special_builtins", '''enable -s''')
t("enable_lists", '''enable | head -5; enable -n test; enable -n | head -3; enable -a | head -4''')

group("cd and pwd")
tools("ln", "env", "grep", "sed", "cut")
e("cd_logical_and_physical", '''T=$PWD; mkdir -p real/sub; ln -s real lnk
cd lnk/sub; pwd | sed "s|$T|T|"; pwd -P | sed "s|$T|T|"; cd -P ..; echo "${PWD#$T}"; cd ../lnk; cd ..; echo "[${PWD#$T}]"
cd -P lnk/sub; echo "${PWD#$T}"; cd -L ..; echo "${PWD#$T}"''')
e("cd_dotdot_after_missing_name", '''mkdir d; cd nonexist/..; echo "rc=$?"; cd d/../d; echo "rc=$? ${PWD##*/}"''')
e("cd_options", '''cd -x; echo "rc=$?"; cd -- .; echo "rc=$?"; cd a b; echo "rc=$?"''')
t("cd_cdpath", '''mkdir -p base/real here; cd here
CDPATH=../base cd real | sed 's|.*/base|BASE|'; CDPATH=../base cd real >/dev/null; echo "rc=$? ${PWD##*/}"
cd ..; CDPATH=:base cd real; echo "rc=$? ${PWD##*/}"
cd ..; CDPATH=base cd ./real 2>/dev/null; echo "rc=$?"''')
t("cd_exports_pwd_oldpwd", '''mkdir d; cd d; env | grep -c '^OLDPWD='; declare -p OLDPWD | cut -c1-11; cd - >/dev/null; echo "rc=$?"''')

group("$_")
t("underscore_after_assignments", '''echo seed; x=1; echo "[$_]"; echo a b; x=$(echo q) y=2; echo "[$_]"; echo c; >/dev/null; echo "[$_]"''')

group("printf -v")
t("printf_v_attached_and_double_dash", '''printf -vx "%s" hi; echo "$x"; printf -v z -- "%s-%s" q r; echo "$z"; printf -vvv 'value'; echo "$vv"; declare -a arr; printf -v 'arr[2]' %d 7; declare -p arr''')

group("Listings and their errors come out in order")
t("type_not_found_between_names", '''f() { :; }; type echo nosuch f cd 2>&1; echo "rc=$?"; type -t echo nosuch cd 2>&1''')
t("command_v_not_found_between_names", '''command -V echo nosuch cd 2>&1; echo "rc=$?"''')
t("shopt_p_unknown_between_names", '''shopt -p extglob nosuch nullglob 2>&1; echo "rc=$?"; shopt -s nullglob bad dotglob 2>&1; shopt -p nullglob dotglob''')
t("trap_p_bad_signal", '''trap '' INT; trap 'echo e' EXIT; trap -p INT nosig EXIT 2>&1; echo "rc=$?"; trap - EXIT''')

group("exit, return and trap arguments")
e("exit_with_too_many_arguments_leaves", '''echo a; exit 3 4; echo after''')
e("return_with_too_many_arguments_leaves", '''f() { return 3 4; echo in; }; f; echo "f=$?"''')
e("break_with_too_many_arguments_leaves", '''for i in 1; do break 1 2; done; echo next''')
t("double_dash_before_the_status", '''f() { return -- 4; }; f; echo "f=$?"; (exit -- 5); echo "sub=$?"''')
e("trap_options", '''trap -1; echo "rc=$?"; trap -- -1; echo "rc=$?"; trap -lp | head -1; trap foo; echo "rc=$?"; trap 'echo x' INT; trap -p INT; trap -- INT; trap -p; echo end''')

group("Options of set, unset, wait and printf -v")
t("getopts_restarts_when_optind_is_assigned", r'''getopts ab o -ab; OPTIND=1; getopts xy o -x; echo $o
OPTIND=1; getopts ab o -ab; echo $o $OPTIND; OPTIND=1; getopts ab o -ab; echo $o $OPTIND''')
e("unset_options_and_names", r'''unset -z; echo $?
unset -fn; echo $?
unset 'a b'; echo $?
unset -v 'a b'; echo $?
x=1; unset -v x -n y; echo $?
readonly r; unset -n r; echo $?
unset -- -x; echo $?
unset -vf x; echo $?
a=(1); unset -v 'a[-2]'; echo st=$?''')
t("set_lone_dash_and_plus", r'''set -v; set - a; echo "$- $*"
set a; set + -; echo "[$*]"
set -x + -v x y; echo "$- $*"
set +xv; set a b; set - +; echo "[$*]"''')
e("set_checks_every_letter_first", r'''set -ez; echo $? $-
set -uz; echo $-''')
t("set_lists_empty_values_and_keys", r'''c=""; d="a b"; declare -A A; A['k e y']=v; set | grep -E "^(c|d|A)="''')
e("wait_for_something_that_is_no_job", r'''wait zzz; echo $?''')
e("printf_v_without_a_format", r'''printf -v x; echo "$? ${x-unset}"''')
e("shopt_o_with_an_unknown_name", r'''shopt -so nope; echo s=$?; shopt -uo nope; echo s=$?; shopt -o nope; echo s=$?; shopt -s nope; echo s=$?
shopt -so errexit nope; echo s=$? $-''')
e("getopts_bad_name_reads_the_option_first", r'''set -- -c foo; getopts "c:" o-; echo st=$? OPTARG=$OPTARG OPTIND=$OPTIND; getopts "c:" o-; echo st=$? OPTIND=$OPTIND''')
t("source_looks_in_path_first", r'''mkdir -p d; echo "echo path" > d/c; echo "echo cwd" > c; PATH="d:$PATH"; . c; shopt -u sourcepath; . c
echo "echo here" > c2; . c2''')

group("Invalid options of builtins that take few")
e("invalid_options_pwd_times_suspend_builtin_command", r'''pwd -x; echo "rc=$?"; pwd -L -P -- >/dev/null; echo "rc=$?"; times -z; echo "rc=$?"; suspend -z; echo "rc=$?"; builtin -z; echo "rc=$?"; builtin -- echo ok; command -z ls; echo "rc=$?"; command -- echo ok2''')
e("invalid_options_source_history_bind", r'''echo 'echo "in $# $1"' > f; source -z; echo "rc=$?"; . -z f; echo "rc=$?"; .; echo "rc=$?"; source -- f a; history -z; echo "rc=$?"; bind -z; echo "rc=$?"''')
