"""`[[ ]]` read as bash's parser reads it (parse.y's cond_term): operators only as
written (not from expansions), newlines before a term and after a complete one, bash's
own messages for a malformed conditional, and what such an error ends: the script with
the status it had, `eval` and `.` with status 2."""

tools("printf", "echo", "cat")

group("newlines inside")
t("newline_after_open_paren_and_bang", "[[ (\na = a ) ]] && echo paren\n[[ !\na = b ]] && echo bang\n[[ ( ! a = b\n) ]] && echo both\necho line $LINENO")
t("newline_after_complete_terms", "[[ -n a\n]] && echo unary\n[[ a = b\n]] || echo binary\n[[ a = a &&\n b = b ||\n c = d ]] && echo chain\nx=1; [[ $x -eq 1 &&\n$x == 1 ]] && echo yes")
t("newlines_in_compound_commands", "if [[ -n x &&\n  -n y ]]; then echo both; fi\nwhile [[ ! -n \"\" ]]; do echo w; break; done\nf() { [[ (\n a < b ) ]]; }; f && echo lt\necho $LINENO")

group("errors and their messages")
e("word_without_operator", "echo before\n[[ a b ]]\necho never")
e("status_before_the_error_is_kept", "false\n[[ a b ]]\necho never")
e("operator_from_an_expansion", "x='=='; [[ a $x a ]]\necho never")
e("unary_operator_from_an_expansion", "x=-f; echo $x\n[[ $x a ]]")
e("quoted_paren_is_a_word", "[[ '(' foo ]]")
e("redirection_in_unary_operand", "true; [[ -f < ]]")
e("number_before_redirection", "[[ a 3< b ]]")
e("and_without_left_side", "[[ && ]]")
e("missing_operands", "[[ a = ]]\necho no")
e("missing_unary_operand", "[[ -z ]]")
e("missing_close_paren", "[[ ( a = b ]]")
e("extra_close_paren", "[[ a = b ) ]]")
e("newline_after_bare_word", "[[ a\n]] && echo should-not-print")
e("newline_before_and", "[[ a\n&& b ]] && echo should-not-print")
e("newline_inside_parens_after_word", "[[ ( a\n) ]] && echo should-not-print")
e("empty_and_negated_empty", "(exit 4)\n[[ ]]\necho never")
e("empty_negated", "[[ ! ]]")
e("unary_then_extra_word", "[[ -f = x ]]")
p("unterminated_at_end_of_text", "[[ a = b")
e("in_a_function_body", "f() { [[ a b ]]; }; echo x")
e("in_a_case_arm", "case x in x) [[ a b ]];; esac")

group("what an error ends")
e("eval_returns_two", "false; eval '[[ x y ]]'; echo \"eval $?\"")
e("source_returns_two", "printf 'echo in-src\\n[[ a b ]]\\necho after\\n' > s.sh\n(exit 3); . ./s.sh; echo \"source $?\"")
e("commands_before_on_the_line_do_not_run", "echo first; [[ a b ]]; echo next")
e("valid_conditionals_still_run", "[[ $x =~ ^(a|b)$ ]] || echo nomatch\n[[ a =~ a|b ]] && echo m\nx=ab; [[ $x == @(ab|cd) ]] && echo eg\n[[ a < b ]] && echo lt\n[[ a ]] ; [[ -z \"\" ]] && echo z")

group("a conditional as a function's body")
t("function_body_is_a_conditional", "is_thing() [[ -n $1 ]]\nis_thing hello && echo yes; is_thing '' || echo no\ndeclare -f is_thing\ng() [[ -n $1 ]] 2>/dev/null; g; echo \"status $?\"; declare -f g\nfunction h [[ -z $1 ]]\nh && echo empty")

group("=~ as regcomp reads it")
t("regex_bracket_and_newline", "[[ '[' =~ ^([x[]) ]] && echo \"bracket ${BASH_REMATCH[1]}\"\n[[ $'\\n' =~ . ]] && echo 'dot matches newline'\n[[ 'a]b' =~ a[]]b ]] && echo close-first")
t("regex_invalid_is_status_two", "for r in '{' 'a{b' 'a{}' '+a' 'a|*b' '(*a)' '^*a' 'a{1,2' 'x{2,1}'; do [[ x =~ $r ]]; echo \"$r $?\"; done")
t("regex_valid_corners", "for r in 'a{,2}' 'a**' 'a{1}{2}' '(abc)\\1'; do [[ abcabc =~ $r ]]; echo \"$r $? ${BASH_REMATCH[*]}\"; done\n[[ ab =~ (a)(c)?b ]]; declare -p BASH_REMATCH\n[[ 'foo bar' =~ \\<bar ]] && echo word-start")
t("regex_quoted_parts_are_literal", "[[ x.y =~ \"x.y\" ]] && echo q1; [[ xzy =~ \"x.y\" ]] || echo q2; [[ 'a+b' =~ a\"+\"b ]] && echo q3; re='^(a|b)+$'; [[ abab =~ $re ]] && echo var")

group("-v on arrays")
t("test_v_array_name_is_element_zero", r'''declare -A A=([x]=1); test -v A; echo $?; A[0]=y; test -v A; echo $?
a=([1]=x); [[ -v a ]]; echo $?; a[0]=z; [[ -v a ]]; echo $?
b=(1 2 3); [[ -v b[-1] ]]; echo $?; test -v "b[-3]"; echo $?; test -v "b[-4]"; echo $?''')

group("Reserved words after assignment words")
e("dbracket_after_a_prefix_assignment_is_a_command_name", r'''FOO=bar [[ a == a ]]; echo "st=$?"
a[1]=x b+=y [[ -n x ]]; echo "st=$?"; echo "[${a[1]}] [$b]"
FOO=bar; [[ $FOO == bar ]] && echo real''')
t("unary_operand_spelled_like_a_binary_operator", r'''[[ -n == ]]; echo $?; [[ -z = ]]; echo $?; [[ -f -eq ]]; echo $?
[[ -n != && -n =~ ]]; echo $?; [[ ! -n == ]]; echo $?; x=a; [[ -n $x ]] && echo ok''')
