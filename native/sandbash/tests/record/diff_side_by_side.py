"""diff -y as GNU lays it out: the half width and gutter from -W, tabs kept
where they line up (-t expands them), long lines cut, wide characters
counted as two columns, the marks | < > ( and the / \\ of a missing final
newline, --suppress-common-lines and --left-column, identical files shown
whole."""

tools("diff")

FILES = r"""printf 'a\nb\nsame\nx\n' > f1; printf 'a\nc\nsame\ny\nz\n' > f2; printf 'tab\there\nlong line that goes on and on and on and on and on and on and on and on and on forever\n' > t1; printf 'tab\tthere\nshort\n' > t2; printf 'no newline' > n1; printf 'no newline\n' > n2; printf 'é\n日本語テキスト\n' > u1; printf 'e\n日本\n' > u2
"""

def d(name, script):
    e(name, FILES + script)

group("Layout")
d("default_width", """diff -y f1 f2; echo "rc=$?"; diff -y t1 t2""")
d("other_widths", """diff -y -W 40 f1 f2; diff -y -W 20 t1 t2; diff -y -W 9 f1 f2; diff --width=1 -y f1 f2; diff -y -W 30 u1 u2""")
d("expanded_tabs", """diff -y -t t1 t2; diff -y -t -W 30 f1 f2""")
d("missing_final_newline", """diff -y n1 n2; diff -y n2 n1""")

group("Which lines")
d("common_lines", """diff -y --suppress-common-lines f1 f2; diff -y --left-column f1 f2; diff -y f1 f1; echo "rc=$?"; diff -y /dev/null f1""")
