"""Errors: unknown commands (127), syntax errors (Error::Parse naming the
token), runtime error messages and statuses scripts depend on."""

group("Command not found")
e("notfound_message_and_status", r'''nosuchcommand''')
e("notfound_continues_script", r'''nosuchcommand arg; echo "status $?"''')
e("notfound_in_pipeline", r'''nosuchcommand | cat; echo "status $?"''')
e("notfound_in_cmdsub", r'''x=$(nosuchcommand); echo "status $? [$x]"''')
e("notfound_with_path", r'''./nosuch_script; echo $?''')
e("notfound_absolute_path", r'''/no/such/bin; echo $?''')
t("notfound_in_condition", r'''if nosuchcommand 2>/dev/null; then echo yes; else echo "no $?"; fi''')
e("notfound_errexit", r'''set -e; nosuchcommand; echo never''')
e("notfound_quoted_name_with_space", r'''"no such"; echo $?''')
t("notfound_empty_command_from_expansion", r'''x=; $x; echo "status $?"''')
e("notfound_after_var_expansion", r'''cmd=notthere; $cmd arg''')
e("notfound_directory_as_command", r'''/tmp; echo $?''')

group("Syntax errors")
p("syntax_fi_without_if", r'''fi''')
p("syntax_then_without_condition", r'''if then fi''')
p("syntax_missing_fi", r'''if true; then echo x''')
p("syntax_done_without_loop", r'''echo a; done''')
p("syntax_unclosed_brace_group", r'''{ echo a''')
p("syntax_unclosed_paren", r'''( echo a''')
p("syntax_unexpected_close_paren", r'''echo a )''')
p("syntax_unclosed_single_quote", r'''echo 'abc''')
p("syntax_unclosed_double_quote", r'''echo "abc''')
p("syntax_double_semicolon", r'''echo a;; echo b''')
p("syntax_pipe_at_start", r'''| cat''')
p("syntax_and_at_start", r'''&& echo x''')
p("syntax_esac_without_case", r'''esac''')
p("syntax_case_missing_in", r'''case x esac''')
p("syntax_redirect_without_target", r'''echo >''')
p("syntax_for_missing_do", r'''for x in a b; echo $x; done''')
p("syntax_else_without_if", r'''else echo x''')
p("syntax_empty_function_body", r'''f() }''')
p("syntax_unclosed_cmdsub", r'''echo $(echo a''')
p("syntax_while_missing_done", r'''while true; do echo x''')

group("Runtime errors")
e("rt_bad_substitution", r'''echo ${x!y}; echo after''')
e("rt_arith_syntax_error", r'''echo $((1 +)); echo after''')
e("rt_arith_error_token_not_ascii", r'''echo $(( 1 + é )); echo after''')
e("rt_arith_error_token_not_ascii_first", r'''x=$(( é + 1 )); echo "after $x"''')
e("rt_return_outside_function", r'''return 2; echo after $?''')
e("rt_break_outside_loop", r'''break; echo "after $?"''')
e("rt_shift_non_numeric", r'''set -- a; shift x; echo $?''')
e("rt_cd_too_many_args", r'''cd /tmp /; echo $?''')
e("rt_exit_non_numeric", r'''exit abc''')
e("rt_unset_readonly", r'''readonly ro=1; unset ro; echo $? $ro''')
e("rt_declare_invalid_name", r'''declare 1x=2; echo $?''')
e("rt_invalid_identifier_export", r'''export 'a-b=1'; echo $?''')
e("rt_read_invalid_name", r'''read 'a-b' <<< x; echo $?''')
t("rt_numeric_arg_required_return", r'''f() { return abc; }; f; echo $?''')
t("rt_script_continues_after_errors", r'''nosuch 2>/dev/null; cd /nowhere 2>/dev/null; echo still running''')

group("names in unbound-variable messages")
e("positional_names_with_and_without_braces", r'''set -u
f() { echo ${2%a}; }; f
g() { echo ${#3}; }; g
h() { echo ${4^}; }; h
k() { echo ${5:+x}${5-d}; echo $5; }; k
echo not reached''')

group("syntax errors in backquotes")
e("backquote_parse_errors_count_lines_from_the_command", r''':
echo `if)`; echo "next $?"
f() { echo `fi`; }; f
x=`echo '`; echo "st=$?"''')

group("lines after an abandoned command")
e("lines_count_on_from_the_error", r'''for i in 1; do
echo ${!x}
done
echo $LINENO
for i in 1; do
echo ${!x}
done

echo $LINENO
case "${?^*}" in
x) : ;;
esac
printf "%s-%s\n" "${!v}"
g() { echo "g $LINENO"; }
g
if true
then echo $(( 1 / 0 ))
fi
echo "end $LINENO"
cat <<EOF
${!y}
EOF
# a comment

echo "after the here-document $LINENO"''')
e("an_error_in_a_function_moves_nothing", r'''f() {
  echo ${!x}
}
f
echo $LINENO
{ f
}
echo $LINENO''')
e("lines_after_an_abandoned_command_in_a_script_file", r'''printf 'for i in 1; do\necho ${!x}\ndone\necho $LINENO\nif :\nthen : ${!y}\nfi\n\necho $LINENO\n' > s.sh
bash s.sh; echo "st=$?"''')

group("Syntax errors around functions, subshells and arithmetic commands")
e("after_a_function_definition", "f() { :; }; f\nif then\n")
e("after_a_function_without_newline", "x() { echo; }\nif then")
e("after_a_subshell_and_arithmetic", "( echo )\n(( 1 < 2 ))\nif then")
e("a_word_after_a_compound_command", "echo start\n( : ) echo")
e("a_word_after_fi", "echo start\nif :; then :; fi echo")
e("reserved_words_after_compound_commands", "echo start\nf() { ( : ) }\n}")
e("a_function_name_without_its_paren", "echo start\necho ( a")
e("redirections_after_compound_commands_are_fine", "echo start\nif :; then :; fi 2>/dev/null; fi")
e("arithmetic_for_header", "echo start\nfor ((i=0;i<1;i++))\ndo :; done; fi")
e("arithmetic_then_operator", "echo start\n(( x = 1 )) && then")
e("nested_subshells", "echo start\n(\n(\n:\n)\n)\nfi")
e("quoted_line_of_an_arithmetic_for", "true\nfor ((;;)); fi")

group("Quoted text that looks like an arithmetic for")
t("is_left_as_written", r'''echo 'for ((;;)); x'; echo "for ((;;))"; x='for ((;; )) a'; echo $x; for ((i=0;;i++)); do ((i>2)) && break; done; echo $i''')

group("A parenthesis after a command's words")
p("after_arguments", r'''echo a; echo b (c)''')
p("after_quoted_words", "echo 'ab' (y)")
p("after_a_word_across_lines", 'echo "a\nb" (y)')
p("after_a_continued_line", 'echo a\\\nb (y)')
p("after_compound_commands", "{ a; } (b)")
p("after_an_assignment", "x=1 (y)")
p("after_a_substitution", "echo $(echo a) (y)")
p("in_a_for_list", "for i in a (b); do :; done")
p("function_parentheses_then_the_end", "f (")
p("before_an_unclosed_quote", "echo 'a' (y) '")
p("before_a_quote_closed_on_the_next_line", "printf '%'d\\n' \nprintf '<%s>' ; while read -r l; do printf '(%s)' \"$l\"; done < f3; echo")
t("grouping_inside_conditionals", r'''[[ ( a == a ) && ( b != c ) ]] && echo ok; read v < <(echo hi); echo "$v" >(:) x''')
p("a_continued_line_before_an_error_is_not_run", 'echo a\\\nb; (')
