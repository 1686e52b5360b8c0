"""Errors as bash reports them from script files, sourced files and functions:
the name in front (the file the running code comes from, `environment` for a
function defined by `-c` text, else `$0`), BASH_SOURCE in functions, which errors
end the shell and with what status, and which only abandon the current line."""

tools("chmod", "printf")

group("The name in front of an error")
e("script_file_errors_name_the_file", r'''printf 'nocmd\necho ${z:?zz}\necho unreached\n' > s.sh; bash s.sh; echo "rc=$?"; chmod +x s.sh; ./s.sh; echo "rc=$?"''')
e("sourced_file_and_its_functions", r'''printf 'nocmd\nf() { nocmd2; }\nf\n' > lib.sh; source lib.sh; echo "rc=$?"; f; g() { nocmd3; }; g''')
e("dash_c_name_and_functions", r'''bash -c 'nocmd; f() { nocmd2; }; f' myname; bash -c 'nocmd' ''')
e("syntax_errors_in_nested_shells", r'''printf 'echo ok\nif then\n' > p.sh; bash p.sh; echo "rc=$?"; bash -c 'fi'; echo "rc=$?"; bash -c 'fi' nm; source p.sh; echo "rc=$?"''')
e("eval_inside_script_and_function", r'''printf 'eval "fi"\necho next\n' > e.sh; bash e.sh; f() { eval 'fi'; }; f''')
e("errors_inside_eval_name_the_eval_line", '''echo a
eval "cd nope"
for i in 1; do eval "cd nope2"; done
f() {
  eval "cd nope3"
}
f; eval 'echo $LINENO'
''')
e("printf_errors_in_a_script_file", r'''printf 'printf "%%d\\n" x\n' > pf.sh; bash pf.sh; echo "rc=$?"''')

group("BASH_SOURCE")
t("bash_source_follows_function_definitions", r'''f() { echo "f:${BASH_SOURCE[*]}"; }; f; echo "top:${BASH_SOURCE[*]}:$0"; printf 'g() { echo "g:${BASH_SOURCE[*]}"; f; }\necho "in:${BASH_SOURCE[*]}"\n' > so.sh; source ./so.sh; g''')
t("bash_source_in_a_script_and_exported_functions", r'''f() { echo "f:${BASH_SOURCE[*]}"; }; export -f f; printf 'echo "script:${BASH_SOURCE[*]}:$0"\nh() { echo "h:${BASH_SOURCE[*]}"; f; }\nh\n' > sc.sh; bash sc.sh''')

group("Fatal errors: the status")
e("unset_variable_in_a_script_exits_1", r'''printf 'set -u\ng() { echo $nope; }\ng\necho unreached\n' > y.sh; bash y.sh; echo "rc=$?"; bash -c 'set -u; echo $nope'; echo "rc=$?"''')
e("unknown_transformation_ends_the_shell", r'''x=(1 2); bash -c 'x=1; echo ${x@Z}
echo unreached'; echo "rc=$?"; printf 'x=1\necho ${x@Z}\necho unreached\n' > t.sh; bash t.sh; echo "rc=$?"''')

group("Errors that abandon only the current line")
e("arithmetic_error_then_next_line", '''echo $((1/0)); echo same-line
echo next-line $?
v=1/0; echo $((v))
echo after-variable $?''')
e("readonly_assignment_then_next_line", '''readonly r=1
r=2; echo same-line
echo next-line $?
f() { r=3; echo in-function; }
f; echo same-line-as-call
echo after-function $?''')
e("bad_substitution_then_next_line", '''echo ${x!y}
echo next $?
echo ${ x}
echo next2 $?''')
e("indirection_and_substring_errors_then_next_line", '''x=; echo ${!x}
echo next $?
s=abc; echo ${s:0:-5}
echo next2 $?''')
e("abandoned_line_inside_subshells", '''x=$(echo $((1/0)); echo in); echo "[$x] $?"
(echo $((1/0))
echo in2); echo "sub $?"
echo $((1/0)) | cat
echo "pipe $?"''')
e("script_file_goes_on_after_abandoned_line", r'''printf 'readonly r=1\nr=2; echo same\necho next $?\necho $((1/0))\necho after\n' > q.sh; bash q.sh; echo "rc=$?"''')
e("array_subscript_error_ends_the_shell", '''a=(); echo ${a[1/0]}
echo unreached''')

group("Arithmetic errors in [[ ]]")
e("conditional_arithmetic_error_is_false", r'''[[ 1/0 -eq 1 ]]; echo $?; [[ ! 1/0 -eq 1 ]]; echo $?; [[ 08 -lt 9 ]]; echo $?''')

group("bash -c takes its command after the options")
t("options_after_c", '''bash -c -- 'echo "$0 $1"' a b; bash -c -x 'echo hi' 2>&1; bash -xc 'echo two' 2>&1; bash -c -e 'false; echo no'; echo "rc=$?"''')
e("c_without_a_command", '''bash -c; echo "rc=$?"; bash -c --; echo "rc=$?"''')

group("source with arguments: the caller's parameters after it")
t("source_args_restored_unless_set_changed_them", r'''printf 'echo "in: $# $1"\n' > a.sh; printf 'set -- q\n' > s.sh; printf 'shift\n' > sh.sh; printf 'set -e; set +e\n' > o.sh; printf 'set --\n' > e.sh
set -- x y; source a.sh 1 2 3; echo "after: $# $1"
source sh.sh 1 2 3; echo "shift: $# $1"
source o.sh 1 2; echo "options: $# $1"
source s.sh 1 2; echo "set: $# $1"
set -- x y; source e.sh 1; echo "empty: $#"
set -- x y; source s.sh; echo "no args: $# $1"''')
t("source_args_inside_a_function_are_restored", r'''printf 'set -- q\n' > s.sh; printf 'f() { set -- in-f; }\nf\n' > g.sh
f() { source s.sh a b; echo "f: $# $1"; }; set -- x y; f 1 2; echo "top: $# $1"
source g.sh a b; echo "set in a function: $# $1"''')

group("Too many arguments to a special builtin")
e("too_many_arguments_end_a_dash_c_string_and_a_line_of_a_file", r'''printf 'set -- a b c\nshift 1 2; echo same line\necho "next $? $#"\nf() { return 1 2; }\nf; echo same\necho "after $?"\n( exit 1 2; echo in ); echo "sub $?"\n' > t.sh; bash t.sh; echo "rc=$?"; bash -c 'shift 1 2
echo unreached'; echo "rc=$?"; bash -c 'for i in 1; do break 1 2; done
echo unreached'; echo "rc=$?"''')
