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
