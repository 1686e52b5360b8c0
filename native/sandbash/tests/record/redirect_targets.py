"""Redirection targets are split and globbed like words: one file matched
is used, several (or none, or a split value) are an ambiguous redirect;
`unset -n` and `declare -na` as bash does them."""

tools("touch")

group("Redirection targets")
t("glob_target_one_match", r'''touch one.txt; echo hi > one.*; cat one.txt''')
e("glob_target_several_matches", r'''touch two1.x two2.x; echo hi > two*.x; echo "s=$?"''')
e("glob_target_no_match_is_literal", r'''echo hi > nomatch*.q; cat 'nomatch*.q'; cat < *.none; echo "s=$?"''')
e("split_target_is_ambiguous", r'''f="a b"; echo x > $f; echo "s=$?"; echo x > "$f"; cat "a b"''')
e("empty_targets", r'''echo x > $empty; echo "s=$?"; echo x > "$empty"; echo "s=$?"''')
e("brace_target_is_ambiguous", r'''echo x > {a,b}; echo "s=$?"''')
t("several_redirections_of_one_fd", r'''echo a 1>o1 1>o2; echo "[$(cat o1)][$(cat o2)]"''')

group("unset -n and declare -na")
t("unset_n_on_plain_variable_keeps_it", r'''v=value; unset -n v; echo "[$v]"; declare -n r=v; unset -n r; echo "[$v]"; declare -p r 2>&1 | cat''')
t("array_attribute_wins_over_nameref", r'''declare -na ref=target; echo "s=$?"; declare -p ref''')
