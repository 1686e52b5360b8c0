"""diff's if-then-else output: line formats and line group formats with all
of GNU's directives (`%<` `%>` `%=`, `%l` `%L`, `%%`, `%c'C'`, printf-style
line numbers, the group letters of each file, conditionals), the defaults GNU
fills in, `-D NAME`, and the conflicts it refuses."""

tools("diff", "cmp", "od", "head")

FILES = r"""printf 'a\nb\nc\nd\n' > f1; printf 'a\nB\nc\nd\ne\n' > f2; printf x > f3; printf y > f4; printf 'a\nx\nb\n' > f5
"""

def d(name, script):
    e(name, FILES + script)

group("Line formats")
d("old_new_unchanged", r"""diff --old-line-format='-%l
' --new-line-format='+%l
' --unchanged-line-format=' %l
' f1 f2; echo "rc=$?"; diff --line-format='%L' f1 f1; echo "rc=$?" """)
d("line_numbers_printf_style", r"""diff --line-format='%dn|%5dn|%-5dn|%05dn|%.3dn|%xn|%Xn|%on|%05.3dn|%3.5dn
' f1 f2""")
d("what_is_not_a_directive_is_written", r"""diff --line-format='%+dn|% dn|%#xn|%z|%c'\''x|%(|%(n=|%%|%<|%
' f1 f5""")
d("characters_and_missing_newlines", r"""diff --line-format='[%l]%c'\''\101'\''%c'\'':'\''
' f3 f4; diff --line-format='[%L]' f3 f4 | od -c | head -2""")
d("a_file_rebuilt_from_its_formats", r"""diff --unchanged-line-format='%L' --old-line-format='' --new-line-format='%L' f1 f2 > out; cmp out f2 && echo same""")

group("Group formats")
d("group_letters_of_each_file", r"""diff --new-group-format='new F=%dF L=%dL N=%dN E=%dE M=%dM f=%df l=%dl n=%dn e=%de m=%dm
' --old-group-format='old F=%dF L=%dL N=%dN E=%dE M=%dM f=%df l=%dl n=%dn e=%de m=%dm
' --unchanged-group-format='same F=%dF L=%dL N=%dN f=%df l=%dl n=%dn
' f5 f1""")
d("conditionals", r"""diff --old-group-format='%(1=1?y:n)|%(1=2?y:n)|%(2=2?%dF:n)|%(n=2?two:%dn)|%(e=2?%(m=5?deep:shallow):no)
' --unchanged-group-format= --new-group-format= f1 f5""")
d("changed_group_defaults_fill_the_others", r"""diff --changed-group-format='%<---
%>' --unchanged-group-format='' f1 f2; echo; diff --old-group-format='old
' --new-group-format='new
' f1 f2; diff --new-group-format='new
' f1 f5""")
d("unchanged_group_with_a_line_format", r"""diff --unchanged-group-format='=%=' --old-line-format='%l!
' f1 f2""")

group("-D NAME")
d("ifdef_groups", r"""diff -D FOO f1 f2; echo "rc=$?"; diff -DFOO f5 f1; diff --ifdef=BAR f2 f1""")
d("ifdef_with_line_formats", r"""diff -D X --line-format='> %l
' f1 f2""")

group("Conflicts")
d("conflicting_values", r"""diff --old-line-format='%l' --line-format='<%l>
' f1 f2; echo "rc=$?"; diff --line-format='<%l>
' --old-line-format='%l|' f1 f2; echo "rc=$?"; diff --old-group-format='OLD
' -D X f5 f1; echo "rc=$?"; diff -D X -D Y f5 f1; echo "rc=$?"; diff -D X -D X f5 f1 >/dev/null; echo "rc=$?" """)
d("conflicting_styles", r"""diff -u --line-format=x f1 f2; echo "rc=$?"; diff -D X -c f1 f2; echo "rc=$?"; diff -u -c f1 f2; echo "rc=$?"; diff -u -U 1 f1 f2 > /dev/null; echo "rc=$?"; diff -q --line-format=x f1 f2; echo "rc=$?" """)
