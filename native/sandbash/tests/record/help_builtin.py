"""`help`: bash's own texts for every builtin and keyword, the listing in two
columns of half of COLUMNS, `-d`, `-s`, `-m` and their clusters, patterns and
prefixes, several operands, unknown topics and options, and `NAME --help`."""

tools("md5sum", "grep", "tail", "wc")

group("The listing")
t("listing_at_80_columns", '''help''')
t("listing_at_100_and_7_columns", '''COLUMNS=100 help | tail -4; COLUMNS=7 help | tail -3; COLUMNS=x help | wc -L''')
t("disabled_builtins_are_starred", '''enable -n echo test; help | grep -F '*'; enable echo; help | grep -cF '*' ''')

group("One topic")
t("long_text", '''help cd''')
t("manual_page", '''help -m pwd''')
t("description_and_synopsis", '''help -d pwd cd; help -s read; help -ds read; help -sd read; help -md pwd''')
t("keyword_topics", '''help '[['; help '((' | head -2; help '{' | head -1; help for; help % | head -2; help variables | tail -3; help -m :''')
t("every_builtin_in_full_and_as_a_manual_page", '''for b in $(compgen -b); do help "$b"; done | md5sum; for b in $(compgen -b); do help -m "$b"; done | md5sum; help -s $(compgen -b) | md5sum''')

group("Patterns, prefixes, several operands")
t("a_pattern_lists_in_bash_order", '''help -s 'r*'; help -d '*a*' ''')
t("a_pattern_in_full", '''help 'rea*' ''')
t("a_prefix_when_nothing_matches_whole", '''help -s re; help -s 'he' ''')
e("unknown_topics", '''help nosuch cd | head -1; echo "st=$?"; help cd nosuch | head -1; echo "st=${PIPESTATUS[0]}"; help no1 no2; echo "st=$?"''')
e("bad_options", '''help -x; echo "st=$?"; help -dz cd; echo "st=$?"; help -- -x; echo "st=$?"''')

group("NAME --help")
t("builtins_print_their_help_status_2", '''pwd --help; echo "st=$?"; cd --help | tail -2; read --help | head -1; declare --help | wc -l''')
