"""Control flow: lists (`;` `&&` `||` `!`), if/while/until/for/case, break and
continue, subshells and groups, `set -e` and `set -u`."""

group("Lists and status")
t("list_semicolon_sequence", r'''echo a; echo b; echo c''')
t("list_newline_sequence", r'''echo a
echo b''')
t("list_and_success", r'''true && echo yes''')
t("list_and_failure", r'''false && echo yes; echo $?''')
t("list_or_failure", r'''false || echo fallback''')
t("list_or_success", r'''true || echo no; echo $?''')
t("list_and_or_chain", r'''false && echo a || echo b''')
t("list_or_and_chain", r'''true || echo a && echo b''')
t("list_chain_left_assoc", r'''false || false && echo x; echo $?''')
t("list_status_of_last", r'''true; false; echo $?''')
t("list_bang_negates", r'''! false; echo $?; ! true; echo $?''')
t("list_bang_pipeline", r'''! echo hi | cat; echo $?''')
t("list_status_exit_code_value", r'''(exit 42); echo $?''')
t("list_status_masked_256", r'''(exit 300); echo $?''')
t("list_script_status_is_last", r'''echo a; false''')
t("list_exit_stops_script", r'''echo before; exit 3; echo after''')
t("list_exit_without_arg_uses_last", r'''false; exit''')
t("list_colon_true_false", r''': ; echo $?; false; echo $?; true; echo $?''')

group("if")
t("if_then", r'''if true; then echo yes; fi''')
t("if_else", r'''if false; then echo yes; else echo no; fi''')
t("if_elif", r'''x=2; if [ $x = 1 ]; then echo one; elif [ $x = 2 ]; then echo two; else echo other; fi''')
t("if_status_no_branch_zero", r'''if false; then echo x; fi; echo $?''')
t("if_status_of_branch", r'''if true; then false; fi; echo $?''')
t("if_condition_list", r'''if false; true; then echo last-counts; fi''')
t("if_multiline", r'''if true
then
  echo multi
else
  echo no
fi''')
t("if_nested", r'''if true; then if false; then echo a; else echo b; fi; fi''')
t("if_condition_command_output", r'''if echo cond-out; then echo body; fi''')
t("if_negated_condition", r'''if ! false; then echo negated; fi''')
t("if_and_or_condition", r'''if true && false || true; then echo ok; fi''')

group("while and until")
t("while_counter", r'''i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done''')
t("while_false_never_runs", r'''while false; do echo never; done; echo $?''')
t("while_status_last_body", r'''i=0; while [ $i -lt 2 ]; do i=$((i+1)); false; done; echo $?''')
t("until_counter", r'''i=0; until [ $i -ge 3 ]; do echo $i; i=$((i+1)); done''')
t("while_break", r'''i=0; while true; do i=$((i+1)); [ $i -eq 3 ] && break; echo $i; done; echo end $i''')
t("while_continue", r'''i=0; while [ $i -lt 5 ]; do i=$((i+1)); [ $((i % 2)) -eq 0 ] && continue; echo $i; done''')
t("while_arith_condition", r'''i=3; while (( i-- > 0 )); do echo $i; done''')
t("while_output_redirected", r'''i=0; while [ $i -lt 2 ]; do echo $i; i=$((i+1)); done > out; cat out''')
t("while_condition_multiple_commands", r'''i=0; while echo check; [ $i -lt 2 ]; do i=$((i+1)); done''')

group("for")
t("for_words", r'''for x in a b c; do echo $x; done''')
t("for_quoted_words", r'''for x in "a b" c; do echo "<$x>"; done''')
t("for_no_in_uses_positional", r'''set -- p q "r s"; for x; do echo "<$x>"; done''')
t("for_empty_list", r'''for x in; do echo never; done; echo "status $?"''')
t("for_var_keeps_last_value", r'''for x in 1 2 3; do :; done; echo $x''')
t("for_brace_expansion", r'''for i in {1..4}; do echo -n $i; done; echo''')
t("for_cmdsub_list", r'''for w in $(echo x y z); do echo $w; done''')
t("for_c_style", r'''for ((i = 0; i < 3; i++)); do echo $i; done''')
t("for_c_style_empty_parts", r'''i=0; for ((;;)); do i=$((i+1)); [ $i -gt 2 ] && break; done; echo $i''')
t("for_c_style_two_vars", r'''for ((i=0, j=10; i < 3; i++, j--)); do echo $i $j; done''')
t("for_newline_form", r'''for x in a b
do
  echo $x
done''')
t("for_nested_break_two", r'''for i in 1 2 3; do for j in a b c; do [ $j = b ] && break 2; echo $i$j; done; done; echo out''')
t("for_nested_continue_two", r'''for i in 1 2; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; echo never; done''')
t("for_break_inside_if", r'''for i in 1 2 3; do if [ $i = 2 ]; then break; fi; echo $i; done''')
t("for_break_too_large_exits_all", r'''for i in 1 2; do for j in 1 2; do break 5; done; echo inner-after; done; echo end''')
t("for_status_after_loop", r'''for x in a; do false; done; echo $?''')
t("for_body_modifies_list_var", r'''l="a b"; for x in $l; do l="c d"; echo $x; done''')

t("for_in_empty_list_runs_zero_times", r'''f() { for w in ; do echo "[$w]"; done; echo "end $?"; }; f a b''')
t("for_in_newline_do_is_empty", "set -- a b\nfor w in\ndo echo \"[$w]\"; done; echo end")
t("for_without_in_takes_positionals", r'''set -- a b; for w; do echo "[$w]"; done; for v do echo "<$v>"; done''')
t("for_in_expanding_to_nothing", r'''set -- a b; e=; for w in $e; do echo "[$w]"; done; echo end''')

group("select")
e("select_reads_choices_until_break", r'''printf '2\n\n9\n1\n' | select x in alpha beta; do echo "[$x] $REPLY"; [ "$REPLY" = 1 ] && break; done''')
t("select_ends_with_status_1_at_eof", r'''echo 1 | select x in a b; do echo "$x"; done; echo "st=$?"''')
t("select_without_in_uses_positional_parameters", r'''set -- p q; echo 2 | select v; do echo "$v"; break; done 2>/dev/null; echo select x in y''')

group("case")
t("case_basic", r'''case b in a) echo A;; b) echo B;; c) echo C;; esac''')
t("case_glob_patterns", r'''for f in x.txt y.sh z; do case $f in *.txt) echo "$f text";; *.sh) echo "$f script";; *) echo "$f other";; esac; done''')
t("case_alternatives", r'''case yes in y|yes|Y) echo affirmative;; esac''')
t("case_no_match_status_zero", r'''false; case x in y) echo y;; esac; echo $?''')
t("case_char_class", r'''case 5 in [0-9]) echo digit;; *) echo nondigit;; esac''')
t("case_question_mark", r'''case ab in ?) echo one;; ??) echo two;; esac''')
t("case_quoted_pattern_literal", r'''case '*' in "*") echo star;; esac; case x in "*") echo no;; *) echo any;; esac''')
t("case_variable_pattern", r'''p='a*'; case abc in $p) echo glob-from-var;; esac''')
t("case_fallthrough", r'''case a in a) echo one;& b) echo two;& c) echo three;; d) echo four;; esac''')
t("case_continue_testing", r'''case abc in a*) echo starts-a;;& *c) echo ends-c;;& b*) echo starts-b;; *) echo any;; esac''')
t("case_empty_body", r'''case a in a) ;; esac; echo $?''')
t("case_paren_before_pattern", r'''case z in (z) echo opened;; esac''')
t("case_multiline", r'''x=2
case $x in
  1)
    echo one
    ;;
  2)
    echo two
    ;;
esac''')
t("case_last_clause_no_terminator", r'''case a in a) echo no-dsemi
esac''')
t("case_word_expanded", r'''x=hello; case ${x%lo} in hel) echo stripped;; esac''')
t("case_status_of_body", r'''case a in a) false;; esac; echo $?''')
t("case_empty_string", r'''x=; case "$x" in "") echo empty;; *) echo nonempty;; esac''')
t("case_negated_class", r'''case b in [!a]) echo not-a;; esac''')

group("Subshells and groups")
t("subshell_var_isolation", r'''x=1; (x=2; echo in $x); echo out $x''')
t("subshell_cd_isolation", r'''cd /tmp; (cd /; pwd); pwd''')
t("subshell_exit_only_subshell", r'''(exit 5); echo after $?''')
t("subshell_function_isolation", r'''(f() { echo f; }); f 2>/dev/null; echo $?''')
t("subshell_status", r'''(false); echo $?; (true); echo $?''')
t("subshell_output_redirect", r'''(echo a; echo b) > out; cat out''')
t("subshell_nested", r'''x=0; (x=1; (x=2; echo $x); echo $x); echo $x''')
t("subshell_set_isolation", r'''(set -- a b; echo $#); echo $#''')
t("group_shares_state", r'''x=1; { x=2; echo in $x; }; echo out $x''')
t("group_output_redirect", r'''{ echo a; echo b; } > out; cat out''')
t("group_exit_exits_shell", r'''{ echo in; exit 4; }; echo never''')
t("group_status", r'''{ true; false; }; echo $?''')
t("group_multiline", r'''{
  echo one
  echo two
}''')
t("group_in_and_list", r'''true && { echo a; echo b; }''')

group("set -e (errexit)")
t("errexit_stops_on_failure", r'''set -e; echo a; false; echo b''')
t("errexit_status_of_failed", r'''set -e; (exit 7); echo never''')
t("errexit_ignored_in_if_condition", r'''set -e; if false; then echo no; fi; echo survived''')
t("errexit_ignored_in_while_condition", r'''set -e; while false; do :; done; echo survived''')
t("errexit_ignored_left_of_and", r'''set -e; false && echo no; echo survived''')
t("errexit_ignored_left_of_or", r'''set -e; false || echo rescued; echo survived''')
t("errexit_last_of_and_list_fails", r'''set -e; true && false; echo reached''')
t("errexit_ignored_with_bang", r'''set -e; ! true; echo survived''')
t("errexit_in_subshell", r'''set -e; (false; echo in-sub); echo after-sub''')
t("errexit_subshell_failure_exits", r'''set -e; (exit 3); echo never''')
t("errexit_in_function", r'''set -e; f() { echo f1; false; echo f2; }; f; echo after''')
t("errexit_function_in_condition", r'''set -e; f() { false; echo f-continues; }; if f; then echo cond-true; fi''')
t("errexit_disabled_with_plus_e", r'''set -e; set +e; false; echo continues''')
t("errexit_pipeline_last_status", r'''set -e; false | true; echo survived''')
t("errexit_cmdsub_assignment", r'''set -e; x=$(false); echo never''')
t("errexit_group", r'''set -e; { echo a; false; echo b; }; echo c''')
t("errexit_set_o_form", r'''set -o errexit; echo a; false; echo b''')
t("errexit_until_condition", r'''set -e; i=0; until [ $i -ge 2 ]; do i=$((i+1)); done; echo $i''')

group("set -u (nounset)")
e("nounset_unset_var_errors", r'''set -u; echo $nosuch; echo after''')
t("nounset_set_var_ok", r'''set -u; x=1; echo $x''')
t("nounset_default_ok", r'''set -u; echo ${nosuch:-fallback}''')
t("nounset_empty_var_ok", r'''set -u; x=; echo "[$x]"''')
e("nounset_in_subshell", r'''set -u; (echo $nosuch); echo "after $?"''')
t("nounset_dollar_at_ok", r'''set -u; set --; echo "[$@]" $#''')
e("nounset_braced_message", r'''set -u; echo ${undefined_thing}''')
t("nounset_plus_u_disables", r'''set -u; set +u; echo "[$nosuch]"''')
e("nounset_positional", r'''set -u; set --; echo $1''')

group("lines of a [[ ]] on several lines")
e("double_bracket_line_is_its_last", r'''[[ $(echo A$LINENO >&2) ||
$(echo B$LINENO >&2) ]]
echo $LINENO
[[ a = ${!d} ||
b ]]; echo next
[[ $((1/0)) = a ||
b ]]; echo next
[[ ${c:?x} = *"a
b"* ]]; echo not reached''')

group("break and continue across subshell boundaries")
e("break_inside_parentheses_sees_only_their_loops", r'''for i in 1 2; do (break); (continue 2); (for j in a b; do break 2; done; echo "sub $j"); echo "in $i"; done; echo out''')
e("break_in_a_pipeline_or_substitution_ends_that_part", r'''for i in 1 2; do echo | break; x=$(continue; echo no); { break; echo no; } | cat; echo "in $i [$x]"; done; echo out''')
e("break_in_compound_pipeline_stages", r'''for i in 1; do break | cat; echo | (break; echo a); echo | if true; then continue; fi; echo | while true; do break; done; echo "in $i"; done''')

group("an out-of-range loop count under set -e")
e("break_zero_fails_and_errexit_ends_the_shell", r'''set -e; for i in 1 2; do for j in a; do break 0; done; echo "in $i"; done; echo after''')
e("continue_zero_under_errexit", r'''set -e; for i in 1; do continue 0; echo no; done; echo after''')
e("break_zero_in_a_condition_context_only_leaves_the_loops", r'''set -e; f() { for i in 1 2; do break 0; done; echo "inf $?"; }; f || echo failed; for i in 1; do break 0 || echo caught; done; echo "end $?"''')
e("break_zero_runs_no_err_trap", r'''trap 'echo ERR' ERR; for i in 1; do break 0; done; echo "after $?"''')
