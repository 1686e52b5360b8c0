"""Bracket expressions in full POSIX form, as bash's matcher reads them:
equivalence classes `[=c=]`, collating symbols `[.c.]` and `[.name.]`, classes
that name nothing, `]` and `-` in every position, ranges that end before they
start, and an unclosed `[` — in `case`, `[[ == ]]`, `${x#...}`/`${x//...}`,
pathname expansion and extglob groups."""

tools("touch")

# Every character of this list is tried against one pattern; the line shows
# which match (bash's answer for the whole list, so neighbours are checked too).
WORDS = r"""a b c d z B - ] [ . / , 0 9 : = \\ % ^ _ '[.' 'a]' '.]' ':]' '=]' '[]' '[=' '[:'"""

def each(name, *patterns):
    body = "; ".join(
        f"printf '%s:' {pat!r}; for x in {WORDS}; do case $x in {pat}) printf ' %s' \"$x\";; esac; done; echo"
        for pat in patterns)
    t(name, body)

group("Equivalence classes")
each("one_character", "[[=a=]]", "[[=a=]]b", "[[=-=]]", "[[=]=]]", "[[=[=]]", "[[=a=][=b=]]", "[![=a=]]")
each("no_range_after_one", "[[=a=]-c]", "[x[=a=]-]")
each("malformed_ones_are_characters", "[[=ab=]]", "[[==]", "[[=]", "[[=]]", "[[=]=]")
t("accents_are_not_folded", r'''for c in e é è E; do case $c in [[=e=]]) echo "$c yes";; *) echo "$c no";; esac; done''')

group("Collating symbols")
each("single_characters", "[[.a.]]", "[[.-.]]", "[[.].]]", "[[.[.]]", "[[.A.]]", "[^[.a.]]")
each("posix_names", "[[.period.]]", "[[.hyphen.]]", "[[.slash.]]", "[[.comma.]]", "[[.backslash.]]",
     "[[.circumflex.]]", "[[.underscore.]]", "[[.equals-sign.]]", "[[.colon.]]", "[[.zero.]]")
each("unknown_names_match_nothing", "[[.ab.]]", "[[.foo.]b]", "[[.PERIOD.]]")
each("range_end_points", "[[.a.]-c]", "[[.a.]-[.c.]]", "[[.-.]-0]", "[[.hyphen.]-0]", "[a-[.c.]]",
     "[[.a.]-[.foo.]]", "[[.foo.]-c]", "[[.a.]-]", "[![.a.]-c]")
each("unclosed_symbol_leaves_the_bracket_open", "[[.]", "[[.].]")
t("control_character_names", r'''for n in tab newline space NUL DEL; do printf '%s:' $n; for c in $'\t' $'\n' ' ' x; do case $c in [[.$n.]]) printf ' %q' "$c";; esac; done; echo; done''')

group("Character classes")
each("unknown_class_matches_nothing", "[[:foo:]]", "[![:foo:]]", "[[:foo:]b]", "[[:ALPHA:]]")
each("no_range_after_a_class", "[[:digit:]-]", "[^[:digit:]-]", "[[:alpha:]-z]")
each("unclosed_class_drops_its_bracket", "[[:]", "[[:]]", "[[:a]", "[[::]]", "[[:alpha:]")

group("Closing brackets and dashes in every place")
each("leading_close_is_a_character", "[]]", "[!]]", "[]a]", "[!]a]", "[]-a]", "[a]]")
each("dash_first_last_and_between", "[-a]", "[a-]", "[!-a]", "[--/]", "[a-c-e]", "[%--]", "[a-c-]")
each("reversed_ranges_match_nothing_but_the_rest", "[z-a]", "[z-ab]", "[a-\\]]", "[\\]-a]", "[9-0x]")
each("quoted_dash_and_bracket", "[a\"-\"c]", "[\"]\"a]", "[a-\"]\"]", "[\\-a]")
each("open_bracket_without_close", "[", "[a", "[a[]", "[[]", "a[")

group("Every pattern context")
t("parameter_patterns", r'''x=a.b-c; echo "${x//[[.period.][.hyphen.]]/_}" "${x#[[=a=]]}" "${x%[[.-.]c]}" "${x//[![:alpha:][.period.]]/X}"''')
t("conditional_pattern", r'''[[ a == [[=a=]] ]] && echo eq; [[ - == [[.hyphen.]] ]] && echo sym; [[ b != [[:foo:]] ]] && echo none''')
t("pathname_expansion", r'''touch a.b a-b ab 'a]b'; echo a[[.period.]]b; echo a[[.-.]]b; echo a[[=]=]]b; echo a[[:foo:]]b; echo a[![.period.]]b''')
t("extglob_groups", r'''shopt -s extglob
for w in a.b a-b a--b; do case $w in @(a[[.period.]]b)) echo "$w dot";; a+([[.-.]])b) echo "$w dashes";; esac; done''')
