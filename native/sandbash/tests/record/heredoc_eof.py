"""A here-document the end of the script closes: bash reads it to the end
of the text, warns (naming the line the text ended on and the delimiter it
wanted) and runs the command; quoted and `<<-` delimiters, in `eval`, after
other commands, and when the text ends without a newline."""

group("The end of the text closes a here-document")
e("without_a_final_newline", "cat <<EOF\nabc")
e("with_a_final_newline", "cat <<EOF\nabc\n")
e("after_other_commands", "echo 1\ncat <<EOF\nabc\n\n")
e("quoted_delimiter", "cat <<'EO F'\nabc $x")
e("dash_delimiter", "cat <<-\"X\"\n\tabc\n")
e("expansions_in_the_body", "x=v; cat <<EOF\n$(echo hi)\n${x:-d}")
e("in_eval", "eval 'cat <<EOF\nabc'; echo \"rc=$?\"")
e("a_terminated_one_is_not", "cat <<EOF\nabc\nEOF\necho after")

group("An unclosed quote at the end")
e("status_of_the_last_command_when_it_failed", "(exit 3)\necho \"")
e("else_two", "true\necho \"")
e("false_then_an_open_array", "false\nx=(a")
e("open_arithmetic", "(exit 4)\necho $((1+")
p("same_line_never_ran", "false; echo \"")
e("command_substitution_is_a_syntax_error", "false\necho $(a")
e("eval_is_always_two", "false\neval 'echo \"'; echo $?")
e("nested_bash", "bash -c 'false\necho \"'; echo $?")
e("an_open_array_is_always_one", "(exit 3)\nx=(a")
e("open_arithmetic_names_its_first_line", "false\na=$(( 1 +\n2")
e("open_command_substitution_after_lines", "true\nx=$( (echo a\nb")

group("Here-documents after an arithmetic command in a command substitution")
t("after_a_loop_condition", "r=$(\nq=0; until (( q++ >= 2 )); do echo \"$q\"; done\n); printf '[%s]\\n' \"$r\"\ncat <<EOF\nx $r\nEOF\necho after")
t("after_an_arithmetic_for", "x=$(for ((i=0;i<2;i++)); do echo $i; done)\ncat <<-'E'\n\t$x\n\tE\necho \"$x\"")
t("quoted_substitution_and_the_same_line", "echo \"$( (( 1 )) && echo yes )\" a; cat <<EOF\nbody\nEOF")
t("nested_substitutions", "x=$(y=$( ((1)); echo in ); echo \"$y out\") ; cat <<E\n$x\nE")
t("in_a_function_printed", "f() {\n  x=$( (( 1 )) && echo hi)\n  cat <<EOF\n$x\nEOF\n}\nf; declare -f f")
t("shifts_stay_shifts", "x=$( (( y = 1 << 2 )); echo $y ); echo $(( 1 << 3 )) $x; cat <<EOF\nz\nEOF")
t("shift_after_inner_parentheses_of_an_arithmetic_command", "(( ((1)) << 1 )); echo \"$? x\"\nset -- ; echo \"$#\"\nfor (( i=((0)); i < ((1)) << 1; i++ )); do echo $i; done\n(( ((1)) << 2 )) && cat <<E\nbody\nE\nf() { (( ((1)) << 2 )); }; f; echo \"f $?\"")

group("A here-document inside $( ) with a lone double quote")
t("comsub_quoted_delimiter", '''r=$(cat <<"EOF"
"
EOF
); printf '[%s]\\n' "$r"''')
t("comsub_unquoted_delimiter_expands", '''r=$(
cat <<EOF
a"b $((1+1)) it's
EOF
); echo "[$r]"''')
t("comsub_tab_stripped_and_commands_after", '''x=$(cat <<-EOF
	say "hi
	EOF
echo "ok"); echo "$x"; echo "$(cat <<E
"q
E
)"''')

group("Where a $( ) ends: case patterns, here-documents, comments")
t("comsub_case_pattern_in_double_quotes", r'''echo "$(case b in b) echo B;; esac)"
x="$(case $1 in *) echo star;; esac)"; echo $x
echo "$(case a in (a) echo paren;; esac) after"''')
t("comsub_heredoc_body_with_parens", r'''x=$(cat <<EOF
)
EOF
); echo "[$x]"
y=$(cat <<-EOF
	a ( b
	EOF
); echo "$y"
echo "$(cat <<EOF
(x)
EOF
)"''')
t("comsub_comment_with_paren", r'''echo "$(echo a # )
echo b)"
echo "$(echo "(" ; echo ")")"''')
