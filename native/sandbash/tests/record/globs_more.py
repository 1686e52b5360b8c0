"""Pathname expansion corners: GLOBIGNORE (patterns matched against the whole
path, `*` not crossing `/`, dot files then matched, `.` and `..` never),
its interplay with nullglob/failglob, and unsetting it."""

tools("touch")

group("GLOBIGNORE")
t("globignore_filters", '''touch a.txt b.txt c.txt d.log .hidden
echo *; GLOBIGNORE=b.txt; echo *; GLOBIGNORE='*.txt:x'; echo *; GLOBIGNORE=; echo *; unset GLOBIGNORE; echo *''')
t("globignore_enables_dotfiles", '''touch a .b .c; GLOBIGNORE=a; echo *; echo .*; GLOBIGNORE=.b; echo * .*''')
t("globignore_paths", '''mkdir -p d/e; touch d/x d/y d/e/z; GLOBIGNORE='d/x'; echo d/*; GLOBIGNORE='*'; echo d/*; GLOBIGNORE='d/*'; echo d/* d/e/*''')
t("globignore_all_ignored_is_no_match", '''touch a b; GLOBIGNORE='a:b'; echo *; shopt -s nullglob; echo [*]; echo "<" * ">"''')
e("globignore_failglob", '''touch a; GLOBIGNORE=a; shopt -s failglob; echo *; echo "rc=$?"''')
