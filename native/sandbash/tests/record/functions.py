"""Functions: definition forms, arguments, `return`, `local` with dynamic
scoping, recursion, and how functions interact with the rest of the shell."""

group("Definition and call")
t("func_posix_form", r'''greet() { echo "hello $1"; }; greet world''')
t("func_keyword_form", r'''function greet { echo "hi $1"; }; greet there''')
t("func_keyword_with_parens", r'''function greet() { echo "hey"; }; greet''')
t("func_multiline", r'''f() {
  echo line1
  echo line2
}
f''')
t("func_subshell_body", r'''f() ( x=inner; echo $x ); x=outer; f; echo $x''')
t("func_redefine", r'''f() { echo one; }; f() { echo two; }; f''')
t("func_args_count_and_all", r'''f() { echo "$# [$*]"; }; f a "b c" d''')
t("func_args_restored_after_call", r'''set -- outer1 outer2; f() { echo "in $1"; }; f inner; echo "out $1 $#"''')
t("func_dollar_zero_unchanged", r'''f() { echo $0; }; f''')
t("func_funcname", r'''f() { echo $FUNCNAME; }; f''')
t("func_unset_f", r'''f() { echo f; }; unset -f f; f 2>/dev/null; echo $?''')
t("func_call_before_define_fails", r'''f 2>/dev/null; echo $?; f() { echo now; }; f''')
t("func_shadows_builtin", r'''echo() { builtin echo "wrapped: $*"; }; echo hi''')
t("func_command_bypasses_function", r'''echo() { builtin echo "wrapped"; }; command echo direct''')
t("func_name_with_dash_and_dot", r'''my-func.x() { echo ok; }; my-func.x''')
t("func_output_captured", r'''f() { echo captured; }; x=$(f); echo "[$x]"''')
t("func_in_pipeline", r'''f() { echo piped; }; f | cat''')
t("func_calls_other", r'''a() { echo a; b; }; b() { echo b; }; a''')
t("func_defined_in_function", r'''outer() { inner() { echo inner; }; }; outer; inner''')

group("return and status")
t("func_return_value", r'''f() { return 3; }; f; echo $?''')
t("func_return_default_last_status", r'''f() { false; return; }; f; echo $?''')
t("func_status_of_last_command", r'''f() { true; false; }; f; echo $?''')
t("func_return_stops_body", r'''f() { echo before; return 0; echo after; }; f''')
t("func_return_from_loop", r'''f() { for i in 1 2 3; do [ $i = 2 ] && return $i; echo $i; done; }; f; echo "status $?"''')
t("func_return_in_condition", r'''is_even() { return $(( $1 % 2 )); }; for n in 1 2 3 4; do is_even $n && echo "$n even"; done''')
t("func_return_256_wraps", r'''f() { return 257; }; f; echo $?''')
t("func_exit_exits_shell", r'''f() { exit 6; }; f; echo never''')

group("local and dynamic scoping")
t("local_hides_global", r'''x=global; f() { local x=local; echo "in $x"; }; f; echo "out $x"''')
t("local_without_value_unset", r'''x=global; f() { local x; echo "[${x-unset}]"; }; f''')
t("local_dynamic_scope_seen_by_callee", r'''x=global; inner() { echo "inner sees $x"; }; outer() { local x=outer; inner; }; outer; inner''')
t("local_callee_modifies_callers_local", r'''x=global; inner() { x=changed; }; outer() { local x=outer; inner; echo "outer has $x"; }; outer; echo "global is $x"''')
t("local_global_assignment_without_local", r'''f() { y=set-in-f; }; f; echo $y''')
t("local_recursion_keeps_frames", r'''f() { local n=$1; if [ $n -gt 0 ]; then f $((n-1)); fi; echo $n; }; f 3''')
t("local_multiple_names", r'''f() { local a=1 b=2 c; echo "$a $b [${c-u}]"; }; f''')
t("local_outside_function_fails", r'''local x=1 2>/dev/null; echo $?''')
e("local_outside_function_message", r'''local x=1''')
t("local_nested_shadow_restores", r'''x=0; f() { local x=1; g; echo "f: $x"; }; g() { local x=2; echo "g: $x"; }; f; echo "top: $x"''')
t("local_array", r'''f() { local -a arr=(1 2 3); echo ${#arr[@]}; }; f; echo "[${arr[*]}]"''')
t("local_export_visible_to_child", r'''f() { local -x v=exported-local; bash -c 'echo $v'; }; f''')
t("local_unset_reveals_outer", r'''x=global; f() { local x=local; unset x; echo "[${x-unset}]"; }; f''')

group("Recursion")
t("func_recursive_factorial", r'''fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10''')
t("func_recursive_fib", r'''fib() { local n=$1; if [ $n -lt 2 ]; then echo $n; return; fi; local a=$(fib $((n-1))) b=$(fib $((n-2))); echo $((a+b)); }; fib 10''')
t("func_recursive_countdown", r'''down() { [ $1 -eq 0 ] && return; echo $1; down $(( $1 - 1 )); }; down 4''')

group("Names with expansions")
e("function_name_with_an_expansion_is_refused", r'''a$b() { echo x; }; echo "st=$?"; declare -F
foo-$(echo hi)() { echo y; }; echo "st=$?"; declare -F''')

group("Names bash reads with extglob off")
t("names_ending_in_pattern_characters", r'''f+() { echo plus; }; f+; f!() { echo bang; }; f!; h?() { echo qm; }; h\?; function g*() { echo star; }; g\*; f@ () { echo at; }; f@; declare -F''')
t("bang_before_a_subshell_negates_it", r'''!(false); echo $?; if !(exit 3); then echo neg; fi; ! (true); echo $?''')
t("extglob_patterns_after_shopt_on_a_later_line", "shopt -s extglob\ncase ab in @(a|x)b) echo matched;; esac\nf+() { echo def; }; f+")
e("names_in_a_command_substitution_and_eval", r'''x=$(f+() { echo in-sub; }; f+); echo "$x"; eval 'k@() { echo in-eval; }'; k@''')

group("An assignment is no function name")
p("assignment_before_parens", r'''a=b() { echo no; }''')
e("assignment_before_blank_and_parens", r'''echo first
x+=y () { echo no; }
echo never''')
p("empty_array_then_a_brace", r'''f=() { :; }''')
t("function_keyword_takes_an_assignment_name", r'''function a=b { echo kw; }; a=b; echo "st=$?"; function c=d() { echo kw2; }; c=d''')
