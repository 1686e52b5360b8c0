"""Pathname expansion corners: GLOBIGNORE (patterns matched against the whole
path, `*` not crossing `/`, dot files then matched, `.` and `..` never),
its interplay with nullglob/failglob, and unsetting it."""

tools("touch", "grep", "sed")

group("GLOBIGNORE")
t("globignore_filters", '''touch a.txt b.txt c.txt d.log .hidden
echo *; GLOBIGNORE=b.txt; echo *; GLOBIGNORE='*.txt:x'; echo *; GLOBIGNORE=; echo *; unset GLOBIGNORE; echo *''')
t("globignore_enables_dotfiles", '''touch a .b .c; GLOBIGNORE=a; echo *; echo .*; GLOBIGNORE=.b; echo * .*''')
t("globignore_paths", '''mkdir -p d/e; touch d/x d/y d/e/z; GLOBIGNORE='d/x'; echo d/*; GLOBIGNORE='*'; echo d/*; GLOBIGNORE='d/*'; echo d/* d/e/*''')
t("globignore_all_ignored_is_no_match", '''touch a b; GLOBIGNORE='a:b'; echo *; shopt -s nullglob; echo [*]; echo "<" * ">"''')
e("globignore_failglob", '''touch a; GLOBIGNORE=a; shopt -s failglob; echo *; echo "rc=$?"''')

group("A backslash alone does not make a pattern")
t("expansion_results_keep_their_backslashes", r'''touch ab 'a*b' abc; y='a\*b'; echo $y; w='a\b'; echo $w; shopt -s nullglob; echo $w $y; x='\n'; echo "[$x]" [$x]''')
e("failglob_passes_them", r'''shopt -s failglob; x='\n'; echo $x; y='a\*b'; echo $y; z='\\'; echo $z; echo next''')
t("with_a_glob_character_the_backslash_escapes", r'''touch ab 'a*b' abc; v='a\b*'; echo $v; v='\a*'; echo $v; v='x\y*'; echo $v; v='[ab]\c'; echo $v''')
t("script_words_are_unchanged", r'''touch ab 'a*b' abc; echo a\*b a\\b a\b "a\*"* 'a\'* a\** a\?c''')
t("matching_still_unescapes", r'''w='a\b'; case ab in $w) echo case;; esac; [[ ab == $w ]] && echo cond; x='a\*'; [[ 'a*' == $x ]] && echo star''')

group("Character classes in a UTF-8 locale")
t("letters_of_every_script", r'''for c in ä É é ß 5 ١ € _ ' ' x; do printf '%s:' "$c"; for k in alpha upper lower alnum digit punct print graph space word; do case $c in [[:$k:]]) printf ' %s' $k;; esac; done; echo; done''')
t("in_parameter_patterns_and_tests", r'''v="é:è"; echo "${v##[[:alpha:]]*}|${v%%[[:punct:]]*}|${v//[[:alpha:]]/L}"; [[ É == [![:lower:]] ]] && echo not-lower; [[ é =~ ^[[:alpha:]]+$ ]] && echo re "${BASH_REMATCH[0]}"''')
t("in_grep_and_sed", r'''printf 'émile\nfoo1\nnaïve x\n' > f; grep -c '^[[:alpha:]]*$' f; sed 's/[[:alpha:]]/L/g' f''')

group("Extglob patterns read with extglob off")
p("a_pattern_is_a_syntax_error", '''echo @(a|b); echo not-run''')
e("each_opener", '''for p in '?(a)' '*(a)' '+(a)' '!(a)' 'x@(a)y'; do bash -c "echo $p" 2>&1; echo "rc=$?"; done''')
e("the_whole_line_is_read_before_it_runs", '''echo first
shopt -s extglob; echo @(a|b)
echo never''')
e("the_next_line_is_read_with_it", '''touch a b
shopt -s extglob
echo @(a|b) !(a)''')
p("case_patterns_too", '''x=foo; case $x in @(foo|bar)) echo yes;; esac''')
t("cond_patterns_and_operands_need_no_option", '''[[ foo == @(foo|bar) ]] && echo cond; x=abc; echo "${x:-@(a)}" ${y:-+(b)}; echo "@(q)" \\@\\(r\\) '!(s)' ''')
t("arithmetic_keeps_its_parentheses", '''(( y = 2*(3+1) )); echo $y $(( 4+(1) )) $(( 2*(y) )); for ((i=0; i<2*(2); i++)); do :; done; echo $i''')
e("in_eval_with_the_option_of_then", '''eval 'shopt -s extglob
echo @(a|b)'; shopt -u extglob; eval 'echo 1; echo *(d)'; echo "rc=$?"''')
t("a_function_keeps_how_it_was_read", '''shopt -s extglob
f() { case $1 in @(a|b)) echo ab;; *) echo other;; esac; }; shopt -u extglob; f a; f c''')
e("unterminated_pattern", '''shopt -s extglob
echo a
echo @(x
echo b''')

group("failglob under set -e")
e("failglob_ends_the_shell_under_errexit", r'''set -e
shopt -s failglob
echo *.ZZ
echo "after $?"''')
e("failglob_in_a_for_list_under_errexit", r'''set -e; shopt -s failglob
for x in *.ZZ; do echo $x; done
echo after''')

group("globskipdots off; GLOBIGNORE brackets")
t("globskipdots_off_lets_dot_patterns_match_dot_and_dotdot", r''': > a.x; : > _b.x; : > .h; mkdir d
shopt -u globskipdots; echo .*; echo .?; echo *; echo d/.*; echo .*/
GLOBIGNORE=x; echo .*; unset GLOBIGNORE; shopt -s globskipdots; echo .*''')
t("globignore_colon_inside_brackets_does_not_split", r''': > a.x; : > _b.x; : > a:b; : > c
GLOBIGNORE=[[:alnum:]]*; echo *
GLOBIGNORE='*[[:punct:]]*:c'; echo *
GLOBIGNORE='a\:b:c'; echo *
GLOBIGNORE='[]:]*:c'; echo *''')
t("globignore_unclosed_bracket_takes_the_rest", r''': > a; : > b; : > '[x:b'
GLOBIGNORE='[x:b'; echo *; GLOBIGNORE='[[x]:b'; echo *; GLOBIGNORE='[[a]]:b'; echo *; GLOBIGNORE='q\[:b'; echo *''')

group("Extglob negation in removals and replacements")
t("negation_in_parameter_removal_and_replacement", r'''shopt -s extglob; x=abc; echo ${x#!(*)} ${x/#!(*)/-} ${x//!(*)/-} ${x%%!(*)}
z=a; echo "${z//!(a)/-}" "${z/!(a)/-}" "${z#!(a)}" "${z##!(a)}"
v=xyxyx; echo "${v#!(x)y}" "${v##x!(y)}" "${v%x!(y)}" "${v//!(x|y)/-}" "${v/a!(b)*/-}"
w=abc; echo "${w#a!(b)*}" "${w##a!(b)*}" "${w%!(a)}"''')
