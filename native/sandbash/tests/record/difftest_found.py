"""Behaviours the differential tester (tools/difftest) found mismatching, by class:
the operand of `${x:-word}` and friends inside double quotes, case toggling
`${x~}`/`${x~~}`, operators on `$#` (`${##pat}`), and their neighbours."""

group("Operands of ${x:-word} inside double quotes")
t("dq_default_single_quotes_literal", r'''x=; printf '<%s>' "${x:-'a b'}" "${u-'a'}" "${x:+'n'}"; echo''')
t("dq_alternative_single_quotes_literal", r'''x=abc; printf '<%s>' "${x:+'it'}" "${x:+'a b' c}" ${x:+'a b'}; echo''')
t("dq_assign_default_keeps_quotes", r'''unset y; printf '<%s>' "${y:='a b'}"; echo "[$y]"; unset y; printf '<%s>' ${y:='a b'}; echo "[$y]"''')
t("dq_default_escapes", r'''x=; printf '<%s>' "${x:-\'}" "${x:-\a\$\"\}}" "${x:-\\}"; echo''')
t("dq_default_tilde_not_expanded", r'''x=; unset y; printf '<%s>' "${x:-~}" "${x:-~/d}" "${y:=~}" ${x:-~}; echo "[$y]"''')
t("dq_default_ansi_c_still_decoded", r'''x=; printf '<%s>' "${x:-$'a\tb'}" "${x:-"q r"}" "${x:-a"*"b}" "${x:-*}"; echo''')
t("dq_default_nested_expansions", r'''x=; a=A; printf '<%s>' "${x:-'$a'}" "${x:-$(echo "'s'")}" "${x:-${a:+'q'}}" "${x:-`echo "'b'"`}"; echo''')
t("dq_pattern_operators_still_quote", r'''x=abc; printf '<%s>' "${x#'a'}" "${x/'b'/'B'}" "${x%"c"}" "${x/b/'q'}" "${x/b/\'}"; echo''')
t("dq_default_array_at", r'''arr=(); printf '<%s>' "${arr[@]:-'a'}" "${@:-'p'}"; echo''')
e("dq_error_message_quotes_removed", r'''x=; echo "${x:?'m s'}"''')

group("Case toggle ${x~} and ${x~~}")
t("toggle_first_and_all", r'''x=aBc; printf '<%s>' "${x~}" "${x~~}" ${x~~[ab]} "${x~[a]}"; echo''')
t("toggle_split_and_lists", r'''y="ab cd"; printf '<%s>' ${y~} ${y~~}; arr=(ab Cd); printf '<%s>' "${arr[@]~}" "${arr[*]~~}" "${arr[1]~~}"; set -- xY z; printf '<%s>' "${@~}" "${*~~}"; echo''')
t("toggle_inside_words", r'''x=aBc; echo "pre${x~}post ${x~~}" a${x~~}b$x; echo ${x~~}${x~}''')
t("toggle_unset_and_multibyte", r'''unset n; printf '<%s>' "${n~~}" ${n~}; u='éÀb'; printf '<%s>' "${u~~}"; echo''')
t("toggle_nested_in_operands", r'''a=x; v=aBc; printf '<%s>' "${a:?${v~~}}" ${a:-${v~}} "${b:-${v~~}}" ${b-${v~[a]}} "${b:+${v~}}"; echo
r=v; echo ${!r~~} ${b:=${v~}} $b
cat <<EOF
it's ${a:?${v~~}} ${b-${v~}} '${v~~}'
EOF
echo '${v~}' \${v~}''')
e("toggle_of_special_parameters_is_bad_substitution", r'''echo ${?~}; echo ${x:-${-~}}; echo after''')

group("Operators on $#")
t("nargs_operators", r'''set -- a b; printf '<%s>' "${##a}" "${###}" "${#%2}" "${#:-x}" "${#-x}" "${##}" "${#}" ${#/2/X} "${#:0:1}" "${#@Q}"; echo''')
t("nargs_remove_prefix_in_cmdsub", r'''printf '<%s>' "$(echo ${###a})" ${##0}; echo''')

group("Line numbers of arithmetic commands")
e("arith_command_error_names_its_line", """x=1
(( 1e3 ))
echo a; (( 2/0 )) && echo
(( x/0 )); echo b""")
e("arith_command_multiline_names_its_last_line", """x=1
((
x+
2/0 ))
echo $LINENO""")
e("arith_for_errors_name_the_for_line", """echo
for ((i=0; i<2; i+=1/i)); do
echo $i
done""")
t("arith_lineno_inside_commands", """echo $LINENO; (( x = LINENO )); echo $x
(( y =
LINENO )); echo $y
for ((i=0;i<2;i++)); do
:
echo $LINENO
done; echo $LINENO""")
e("arith_command_in_function_line", """f() {
:
(( 1/0 ))
}
f""")
e("case_word_error_names_case_line", """echo
case ${b:?x} in
*) ;;
esac""")
e("for_word_error_names_for_line", """v=
for w in a ${!v}; do
:
done""")

group("Unused alternatives of quoted lists make no word")
t("quoted_at_alternative_unused", r'''set --; printf '<%s>' "${@:+x}" "${*:+x}" "${@-x}" "${@:-x}" "${@+x}"; echo; set -- a; printf '<%s>' "${@:+x}" "${@:+}"; echo''')
t("quoted_array_alternative_unused", r'''arr=(); printf '<%s>' "${arr[@]+x}" "${arr[*]+x}" "${arr[@]:+x}"; unset arr; printf '<%s>' "${arr[@]+x}" "a${arr[@]+x}"; echo; set -- "${arr[@]:+y}"; echo $#''')

group("Indirect expansion of unset positional parameters")
t("indirect_unset_positional_is_empty", r'''set --; echo "<${!1}>" "${!3:-d}" ${!2+x}; set -- "" ; echo "<${!2}>"''')
e("indirect_unset_name_still_errors", r'''unset v; echo "<${!v}>"''')

group("Arithmetic: characters no operator starts with")
e("arith_invalid_operator", r'''(( 1.5 )); (( a.b )); (( 1 @ 2 )); (( 1 ] 2 )); echo $?''')
e("arith_invalid_operator_vs_operand_expected", r'''(( . )); (( 1 + @ )); (( (.) )); x=file.tar.gz; (( ++x )); echo $(( 2 + 1.5 ))''')

group("printf -v stops at a NUL")
t("printf_v_value_ends_at_nul", r'''printf -v b 'a\0b|'; echo "${#b} ${b@Q}"; printf -v c '%3c|' ''; echo "${c@Q}"; printf -v d '%b' 'x\0y'; echo "$d"''')

group("Arithmetic: a `$` left in the text")
e("arith_dollar_left_unexpanded", r'''let '$n & 1 & 1' '(1 | $n)' '${n} ^ 1' '1 $ 2'; echo $?''')

group("A double quote inside an operand in double quotes")
t("dq_operand_lone_double_quote_opens_a_string", r'''printf '<%s>' "${b:-'"'}" "${b:-'a"b'}" "${b:-"'"}" "${b:-a"b c"d}"; echo''')
t("dq_operand_lone_double_quote_in_assignments", r'''x="${c:='"'}"; declare -p x c; set -- "${u:-'"'}"; echo "$# $1"''')

group("Here-documents: line continuation and expansion errors")
t("heredoc_backslash_newline_joins_lines", "cat <<EOF\na\\\nb\nc \\\\\nd\nEOF\ncat <<'EOF'\nq\\\nr\nEOF")
t("heredoc_continued_dollar", "x=1\ncat <<EOF\n$\\\nx ${x\\\n}\nEOF")
e("heredoc_error_fails_a_simple_command", "cat <<EOF\n${c?gone}\nEOF\necho after $?\n(cat) <<EOF\n${d?gone}\nEOF\necho after $?")
e("heredoc_error_ends_the_shell_for_a_compound", "while read l; do :; done <<EOF\n${c?gone}\nEOF\necho never")
e("heredoc_error_ends_the_shell_for_a_group", "{ cat\n} <<EOF\na\n${c?gone}\nEOF\necho never")
e("heredoc_error_ends_the_shell_for_a_function", "f() { cat; }\nf <<EOF\n${c?gone}\nEOF\necho never")
e("compound_redirection_errors_name_its_last_line", "while false\ndo :\ndone > /nonexistent/x\necho $?\n{ echo a\n} > /nonexistent/y\n{ cat; } <<EOF 2>/nonexistent/z\na\nEOF\n( echo\n) > /nonexistent/w")

group("Line numbers of multi-line simple commands, eval and $( )")
t("lineno_is_where_the_second_word_ends", "echo $LINENO \"a\nb\" $LINENO\necho \"a\nb\" $LINENO; echo $LINENO\nf=$LINENO\"\n\"; echo \"$f\"\necho a \\\nb $LINENO")
t("lineno_in_eval_counts_from_its_last_line", "eval 'echo $LINENO\necho $LINENO'\neval 'echo $LINENO\n\necho $LINENO'\n\neval '\necho $LINENO'")
t("lineno_in_multiline_cmdsub", "r=$(\necho $LINENO\n)\necho $r\nx=$(\n\necho $LINENO\n\n); echo $x\nr=$(\n# c\necho $LINENO\n); echo $r\necho a $(\n\necho $LINENO\n) b")
e("errors_in_multiline_cmdsub_name_bash_lines", "r=$(\nreadonly v=1; v=q; echo $?\n); printf '[%s]\\n' \"$r\"\nr=$(\nlocal x=1\n); echo\nr=$(\nnocmd_here\n)")

group("printf errors between its lines (bash's stdout is line-buffered)")
t("printf_error_after_complete_lines", r"""{ printf '%g\n' '' x; } 2>&1; { printf '%d-%d\n' 1 x 2 y; } 2>&1; { printf 'a%d' x; printf 'b\n'; } 2>&1""")
t("printf_error_mid_format", r"""{ printf '%d\n%d' 1 x; echo; } 2>&1; { printf '%d %s\n' 1 a x b; } 2>&1 | cat""")

group("A backslash at the end of the text")
t("trailing_backslash_is_literal", r"""x=`echo \\`; echo "$x"; printf '<%s>' `printf '%s,' \\`; echo; eval 'echo \'; bash -c 'echo q\'""")

group("Length of an array element")
e("length_of_element_of_unset_array", r"""echo ${#arr[-1]} ${#arr[3]}; eval "${#arr[-1]}"; echo ok""")
e("length_of_missing_element_under_nounset", r"""set -u; arr=(1); echo "${#arr[3]}" "${#arr[0]}" "${#arr[@]}"; declare -A m; echo "${#m[k]}"; echo "${#nope[1]}"; echo never""")
t("element_access_and_unset_in_place", r"""a=(x y z); echo ${a[-1]} ${a[1]} ${a[5]}; s=str; echo ${s[0]} ${s[1]}; a=(1 2 3); echo ${a[i=1]} ${a[a[0]]} $i; unset "a[-1]" "a[0]"; declare -p a; declare -A m=([x]=1 [@]=2 [y]=3); unset "m[@]" "m[x]"; declare -p m; declare -n n=a; unset "n[1]"; declare -p a""")
e("length_of_unset_array_under_nounset", r"""set -u; set -- a b; echo ${#@} ${#*} "${u[@]}"; echo ${#a[@]}; echo never""")
e("length_of_declared_only_array_under_nounset", r"""declare -a d; echo ${#d[@]} ${#d[1]}; set -u; echo ${#d[1]}; echo never""")

group("case inside $( )")
t("case_in_cmdsub_one_line", r"""r=$(case a in *) echo x ;; esac); echo $r; os=$(case "$(echo Linux)" in Linux) echo linux;; Darwin) echo mac;; *) echo other;; esac); echo $os""")
t("case_in_cmdsub_multiline", "r=$(\ncase ${x#a} in\n*) echo y;;\nesac\n); echo $r\nr=$(\ncase \"${v:(-1)}\" in\n$b) echo z ;&\nq) echo fall;;\nesac\n); echo $r")
t("case_in_cmdsub_nested_and_looped", r"""x=$(for i in 1 2 3; do case $i in 1) echo one;; 2|3) case $i in 2) echo two;; *) echo three;; esac;; esac; done); echo $x; r=$(case a in a) echo "it)s" ')';; (b) echo b;; esac); echo $r""")
t("case_words_elsewhere_in_cmdsub", r"""echo $(echo case in a) "$(echo esac)"; f() { case $1 in a) echo A;; esac; }; echo $(f a)""")

group("Unterminated quotes")
e("unterminated_quote_names_the_line_it_opened_on", "echo a\nprintf '%'d\\n' \nset -- x; echo \"$#\"")
e("unterminated_double_quote_and_backquote", "echo a\necho \"abc\nd\ne")
e("unterminated_backquote_line", "echo a\necho `abc\nd\ne")

group("Unquoted $* and $@ with a separator that is not blank")
t("unquoted_star_at_keep_empty_elements", r"""IFS=:; set -- "" "1"; printf '<%s>' $* "|" $@; echo; set -- "" "" ""; printf '<%s>' $* "|" $@; echo; set -- "a b" "" "c"; printf '<%s>' $* "|" $@ "|" x$*y; echo""")
t("unquoted_star_at_other_ifs", r"""IFS=" :"; set -- "" "1"; printf '<%s>' $* "|" $@; echo; IFS=; printf '<%s>' $* "|" $@; echo; IFS=:; set -- "a:b" ""; printf '<%s>' $* "|" $@; echo; a=("" 1); printf '<%s>' ${a[*]} "|" ${a[@]}; echo""")
t("unquoted_star_at_in_loops_and_assignments", r"""IFS=,; set -- a "" b; for x in $@; do echo "[$x]"; done; x=$*; echo "$x"; arr=($*); echo ${#arr[@]}; set --; printf '<%s>' $* $@ x; echo""")

group("${#?}")
t("length_of_last_status", r"""echo ${#?} ${#?x}; false; echo ${#?}; (exit 123); echo "${#?}"; set --; echo ${#?}""")
t("case_in_cmdsub_quoted_and_escaped_patterns", "r=$(\ncase ${c#a} in\n\\* | ?) printf '<%s>' ; echo ;&\nesac\n); printf '[%s]\\n' \"$r\"\nr=$(\ncase '' in\n\"$b\" | 'a') printf '<%s>' ; echo ;;\n# a comment\n*) echo no;;\nesac\n); printf '[%s]\\n' \"$r\"")
t("dq_operand_dollar_before_lone_single_quote", r"""printf '<%s>' "${x:-'$'}" "${x:-'$'z}" "${x:-q'$'}" "${x:-$'a\tb'}" "${x:-'$x'}"; echo""")

group("Case operators on $?, $# and $-")
e("case_operators_on_status_count_flags_are_bad", "echo ${?^^}; echo no\necho ${#,,} ${-^}\n[ -n \"${?^}\" ]; echo $?\necho ${?~~}\necho ${?^^[ab]}\nset -- aB; echo ${1~~} ${@~} ${1^} ${0^^} $?")

group("A quoted operand that expands an empty list")
t("quoted_operand_with_empty_list_is_one_word", r"""set -- "${b-$@}"; echo $#; set -- "${b-"$@"}"; echo $#; set -- ${b-"$@"}; echo $#; set --; set -- "${b:-$@}"; echo $#; a=(); set -- "${b-${a[@]}}"; echo $#; x=1; set -- "${x:+$@}"; echo $#""")
t("quoted_operand_with_elements", r"""set -- a b; set -- "${u-$@}"; echo $#; set -- a b; set -- "${u-"$@"}"; echo $# $2; set -- "${u-}" "${u:-x}"; echo $#; printf '<%s>' "${x:-${arr[@]:(-1)}}" "${b-$@}"; echo""")

group("Fatal expansion errors in the EXIT trap")
e("exit_trap_error_keeps_the_exit_status", "trap 'echo \"x=$x\"' EXIT\nset -u")
e("exit_trap_error_after_exit_n", "trap 'echo ${x?boom}; echo after' EXIT; exit 3")
e("exit_trap_exit_and_subshell_errors", "trap '(echo ${x?in sub}); echo $?; exit 5' EXIT; exit 4")

group("${x//...} whose pattern starts with a slash")
t("replace_all_slash_forms", r"""x=a/b/c; echo ${x////} ${x///} ${x///b} "${x////-}" ${x//} ${x//\//_}; x=abc; echo ${x////} ${x//b/} ${x///} ${x//b} ${x/b}; c=""; printf '<%s>' ${c///<&>}; echo; a=(x/y z/w); echo "${a[@]////}" ${a[*]///-}""")

group("Expansion errors in here-strings; readonly under set -e")
e("herestring_error_fails_the_command", "cat <<< ${c:?x}\necho next $?\nset -u\ncat <<< $nope\necho next $?")
e("readonly_assignment_under_errexit_ends_the_shell", "readonly v=1\nv=q; echo $?\nset -e\nv=q; echo $?\necho never")
t("unquoted_at_in_contexts_without_splitting", r"""IFS=:; a=(x y); [[ ${a[@]} == "x y" ]] && echo yes1; [[ ${a[*]} == "x:y" ]] && echo yes2; case ${a[@]} in "x y") echo c1;; "x:y") echo c2;; esac; cat <<< ${a[@]}; v=${a[@]}; echo "$v"; w=${a[*]}; echo "$w" """)
t("case_in_cmdsub_with_multibyte_text", "case '' in\n$b) printf '<%s>' ä \"$(printf '%s,' \"${a:1}\")\"; echo ;&\nesac\nx=$(case é in é) echo ä;; esac); echo \"$x\" ä")

group("Brace expansion reads double quotes as bash's braces.c does")
t("braces_after_inner_quotes_of_an_operand", r'''b=; printf '<%s>' "${b-"{a,b}"}" "${b:-"x{1..3}"}"; echo; c=1; printf '<%s>' "${c:+"{p,q}"}" ${c-{a,b}} "${c-{a,b}}" ${u-"{a,b}"}; echo''')
t("braces_next_to_substitutions_in_quotes", r'''printf '<%s>' "$(echo "{a,b}")" "$(printf "}")"{a,b} "`echo x`"{a,b} "a\"{x,y}"; x=1; printf '<%s>' "${x}"{a,b}; echo''')
