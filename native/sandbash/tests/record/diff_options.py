"""diff's options beyond the output formats: -e (an ed script, a lone `.`
line escaped as GNU escapes it), -I (changes whose lines all match are not
shown), -x/-X in directories, -N and --unidirectional-new-file, and status 2
with GNU's messages for missing and extra operands."""

tools("diff")

FILES = r"""printf 'a\nb\n' > f1; printf 'a\nc\n' > f2; mkdir d1 d2; echo x > d1/only; echo y > d1/same; echo y > d2/same; echo z > d2/new; printf '1\n2\n3\n4\n5\n' > g1; printf '0\n1\n3\n.\n4\nx\n' > g2
"""

def d(name, script):
    e(name, FILES + script)

group("Ed scripts")
d("ed_script", """diff -e f1 f2; echo "rc=$?"; diff -e g1 g2; echo "rc=$?"; diff -e f1 f1; echo "rc=$?"; diff -e -u f1 f2; echo "rc=$?" """)

group("Ignoring and excluding")
d("ignore_matching_lines", """diff -I a f1 f2; echo "rc=$?"; diff -I '[bc]' f1 f2; echo "rc=$?"; diff --ignore-matching-lines=b --ignore-matching-lines=c f1 f2; echo "rc=$?"; diff -I '^[0-9]$' g1 g2; echo "rc=$?"; diff -I '\\(' f1 f2; echo "rc=$?" """)
d("exclude_in_directories", """diff -x same -r d1 d2; echo "rc=$?"; diff --exclude=only -r d1 d2; echo "rc=$?"; echo 'n*' > ex; diff -X ex -r d1 d2; echo "rc=$?"; diff -x 'd*' -r d1 d2; echo "rc=$?" """)

group("Missing files and operands")
d("new_files", """diff -N f1 nope; echo "rc=$?"; diff -N nope f2; echo "rc=$?"; diff --unidirectional-new-file nope f2; echo "rc=$?"; diff --unidirectional-new-file f1 nope; echo "rc=$?"; diff -r --unidirectional-new-file d1 d2; echo "rc=$?"; diff -r --unidirectional-new-file d2 d1; echo "rc=$?" """)
d("operand_errors", """diff; echo "rc=$?"; diff f1; echo "rc=$?"; diff f1 f2 f3; echo "rc=$?"; diff nope f2; echo "rc=$?" """)
