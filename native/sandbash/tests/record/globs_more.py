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
