"""Traps and the call stack as bash shows them: the DEBUG trap before every
simple command, `(( ))`, `[[ ]]`, each `for` turn, `case` and each part of
`for ((;;))`, with `BASH_COMMAND` printed as bash prints it and `LINENO` at the
trapped line; ERR and RETURN; what functions and subshells inherit under
`set -T`/`set -E`/`extdebug`; `extdebug` skipping commands; `caller`,
FUNCNAME/BASH_SOURCE/BASH_LINENO with `source` frames; BASH_ARGV/BASH_ARGC;
SHELLOPTS, BASHOPTS, BASH_SUBSHELL; NUL bytes dropped by `$( )`."""

tools("od")

group("DEBUG trap")
t("debug_every_command_kind", '''trap 'echo "D[$BASH_COMMAND] $LINENO"' DEBUG
f() { echo ff; }
x=1
(( x++ ))
((x+=2))
[[ $x ]]
[[ -f  "a"  &&  $x == y* ]]
for i in 1 2; do :; done
case  "$x"  in a) :;; esac
f
{ echo g; }
for ((i=0;i<1;i++)); do :; done
for (( ; ; )); do break; done
echo $(echo sub)
while false; do :; done
if true; then :; fi
trap - DEBUG''')
t("traps_leave_pipestatus_as_it_was", '''trap 'true | true' DEBUG
(exit 3); echo "${PIPESTATUS[*]}"
trap - DEBUG
trap 'echo err; true | true | true' ERR
false | (exit 4); echo "${PIPESTATUS[*]}"
f() { (exit 5); }; f; echo "$? ${PIPESTATUS[*]}"
{ (exit 6); }; echo "${PIPESTATUS[*]}"''')
t("debug_pipeline_stages_in_parent", '''trap 'echo "D[$BASH_COMMAND]"' DEBUG
echo a | cat
true | { cat; echo in; }
trap - DEBUG''')
t("debug_multiline_action_lineno", '''trap 'echo "A $LINENO"
echo "B $LINENO"' DEBUG
echo x

echo y
trap - DEBUG''')
t("debug_redirection_printed", '''trap 'echo "D[$BASH_COMMAND]"' DEBUG
echo   "a"    b  >/dev/null   2>&1
x=$(echo 1)  y=2 :
trap - DEBUG''')
t("debug_not_in_functions_untraced", '''f() { echo in f; g; }; g() { echo in g; }
trap 'echo "D[$BASH_COMMAND] ${FUNCNAME[*]}"' DEBUG
f
(echo sub)
trap - DEBUG''')
t("debug_functrace_functions_and_subshells", '''set -T
trap 'echo "D[$BASH_COMMAND] $LINENO ${FUNCNAME[*]}"' DEBUG
f() {
  echo in
}
f
(echo sub)
x=$(echo cs); echo "$x"
trap - DEBUG''')
t("debug_trap_set_inside_function_stays", '''f() { trap 'echo newd' DEBUG; }
trap 'echo x' DEBUG
f
trap -p DEBUG
trap - DEBUG''')
t("traps_hidden_inside_untraced_function", '''trap 'echo x' ERR; trap 'echo d' DEBUG; trap 'echo r' RETURN
f() { trap -p; }
f
trap - DEBUG
trap -p''')

group("extdebug")
t("extdebug_skip_and_return", '''shopt -s extdebug
h() { [[ $BASH_COMMAND == *skip* ]] && return 1; [[ $BASH_COMMAND == *ret* ]] && return 2; return 0; }
trap h DEBUG
echo a
echo skip
f() { echo f1; echo skip2; echo ret; echo f3; }
f; echo "st $?"
for i in 1 2; do echo "i$i"; done
trap - DEBUG''')
e("extdebug_failing_return_at_top_skips", '''shopt -s extdebug
trap 'return 0' DEBUG
echo a
echo b''')
t("extdebug_sets_E_and_T", '''echo "$-"; shopt -s extdebug; echo "$-"; shopt -u extdebug; echo "$-"''')

group("ERR trap")
t("err_lineno_and_command", '''set -E; trap 'echo "ERR $LINENO [$BASH_COMMAND]"' ERR
f() {
  false
}
f
(false)
false | true
true | false
! false
if false; then :; fi
false || true
nonexistent_xyz 2>/dev/null
(( 0 ))
[[ a == b ]]''')
t("err_not_in_function_without_E", '''trap 'echo "ERR $LINENO"' ERR
f() { false; echo still; }
f
(false; echo sub)''')
t("err_subshell_inherits_with_E", '''set -E; trap 'echo ERR' ERR
(false; echo after)
x=$(false; echo y); echo "$x"''')
t("exit_trap_sees_failed_command", '''set -e; trap 'echo "failed: $BASH_COMMAND"' EXIT
f() { echo in; false; }
f''')

group("RETURN trap")
t("return_trap_contexts", '''trap 'echo "RET ${FUNCNAME[*]}"' RETURN
f() { echo inf; }
f
echo 'echo src' > s1.sh
. ./s1.sh
g() { trap 'echo gret' RETURN; h; }
h() { echo h; }
g; echo after; f''')
t("return_trap_in_function_sees_return_line", '''f() { trap 'echo "fret $LINENO [$BASH_COMMAND] $?"' RETURN; echo in f
return 3; }
f; echo $?''')
t("return_trap_functrace", '''set -T; trap 'echo "RET ${FUNCNAME[0]}"' RETURN
f() { echo inf; }
g() { f; }
g''')
e("return_trap_not_for_an_abandoned_function", '''f() { trap 'echo R' RETURN; echo ${!1}; }; f ""
echo next; f x; echo "ret=$?"
g() { trap 'echo G' RETURN; : ${u:?gone}; }
g; echo unreached''')

group("caller and the call stack")
t("caller_in_c_functions", '''f(){ caller 0; echo $?; caller; echo $?; declare -p BASH_SOURCE BASH_LINENO FUNCNAME; }
f
g() {
  f
}
g''')
t("caller_through_source_and_script", '''printf 'f(){ caller 0; caller 1; caller 2; echo $?; caller; declare -p BASH_SOURCE BASH_LINENO FUNCNAME; }\\nf\\n. ./s4.sh\\n' > m.sh
printf 'f\\n' > s4.sh
bash m.sh''')
t("source_frames_in_funcname", '''printf 'inner() { echo "${FUNCNAME[*]} | ${BASH_SOURCE[*]} | ${BASH_LINENO[*]}"; caller 0; caller 1; }\\ninner\\n' > in.sh
printf 'echo "top: [${FUNCNAME[*]}]"\\n. ./in.sh\\n' > out.sh
. ./out.sh
f() { . ./out.sh; }
f''')
t("caller_bad_argument", '''f() { caller x; echo $?; caller -1; echo $?; }; f 2>&1''')

group("BASH_ARGV and BASH_ARGC")
t("argv_sourced", '''printf 'declare -p BASH_ARGV BASH_ARGC\\n' > argv.sh
. ./argv.sh; . ./argv.sh x y; source argv.sh
f() { declare -p BASH_ARGV BASH_ARGC; . ./argv.sh q; }
f a b''')
t("argv_extdebug", '''printf 'declare -p BASH_ARGV BASH_ARGC\\n' > argv.sh
shopt -s extdebug; declare -p BASH_ARGV BASH_ARGC
. ./argv.sh; . ./argv.sh x y
f() { declare -p BASH_ARGV BASH_ARGC; . ./argv.sh q; }
f a b
g() { f "$@" z; }
g 1 2 3''')
t("argv_function_before_and_after_extdebug", '''f(){ declare -p BASH_ARGV BASH_ARGC; }
f 1 2; shopt -s extdebug; f 1 2; shopt -u extdebug; f 3; declare -p BASH_ARGV BASH_ARGC''')

group("Shell variables")
t("shellopts_bashopts", '''echo "$SHELLOPTS"; set -eu -o pipefail; echo "$SHELLOPTS"; set +eu +o pipefail
echo "$BASHOPTS"; shopt -s extglob nullglob; echo "$BASHOPTS"''')
t("bash_subshell", '''echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)); x=$(echo $BASH_SUBSHELL); echo $x''')
t("bash_command_outside_traps", '''echo $BASH_COMMAND; x=$BASH_COMMAND; echo "$x"''')

group("NUL bytes in command substitution")
e("nul_bytes_dropped_with_warning", r'''printf 'a\0b' > f; x=$(cat f); printf '%s' "$x" | od -c | head -1
y=`printf 'q\0\0r'`; echo $y
z=$(< f); echo "${#z}"
echo "$(printf '\0\0\0')" | od -c | head -1''')

group("ERR trap under set -e")
e("errexit_applies_inside_the_err_trap", r'''set -e; trap "echo in trap; false; echo after" ERR; false; echo end''')
e("err_trap_is_off_while_it_runs", r'''trap "echo trap; false; echo after" ERR; false; echo end''')

group("An ERR trap a function sets does not fire for that call")
t("err_trap_set_during_a_call_skips_that_calls_status", r'''f(){ trap "echo t" ERR; return 1; }; f; echo end; f; echo end2
trap - ERR; g(){ trap "echo t2" ERR; (exit 1); }; g; echo end3
trap - ERR; h(){ trap "echo t3" ERR; return 1; }; k(){ h; echo "k $?"; }; k; echo end4
trap "echo old" ERR; m(){ trap "echo new" ERR; return 1; }; m; echo end5
trap "echo t4" ERR; n(){ trap - ERR; return 1; }; n; echo end6''')
t("err_trap_for_a_subshell_ending_a_pipeline_runs_twice", r'''trap 'echo err' ERR; true | (false); echo "s=$?"; (false) | true; echo "s=$?"; true | (false; echo in); true | { false; }; echo end''')
t("debug_trap_lineno_at_the_for_line_each_turn", r'''trap 'echo "[$LINENO]"' DEBUG
for x in 1 2; do
  :
done''')
