"""`help -s` (synopsis) and `help -d` (one-line description) for every
builtin bash 5.2 has, and how help picks its topics: the name itself or a
pattern's matches first, else the names the word begins, the `matching
keyword` header only for a real pattern (a lone `[` is a name)."""

group("Every builtin")
t("synopses_and_descriptions", r"""for b in $(compgen -b); do help -s "$b"; help -d "$b"; done""")

group("Choosing topics")
e("patterns_prefixes_and_names", r"""help -s 're*'; help -s rea; help -s read; help -s 'r[e]ad'; help -s '['; help -d 'e?al' 'ex*'; help -s nope; echo "rc=$?" """)
