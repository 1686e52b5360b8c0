"""`read`: backslashes with and without `-r` (escaped separators, escaped
delimiters, line continuation), `-n` and `-N` counting characters (multibyte
ones too) after escapes, `-d`, IFS whitespace and non-whitespace separators,
the leftover fields of the last name, `-a`, `-t 0`, `-u`, statuses at end of
input, readonly names and option errors."""

group("Backslashes")
t("escaped_space_is_not_a_separator", r'''printf 'a\\ b c\n' | { read x y; echo "[$x][$y] $?"; }; printf 'a\\ b c\n' | { read -r x y; echo "[$x][$y]"; }''')
t("escaped_ifs_char", r'''printf 'a\\:b:c\n' | { IFS=: read x y; echo "[$x][$y]"; }; printf 'a\\\\b\n' | { read x; echo "[$x]"; }''')
t("escaped_delimiter", r'''printf 'a\\:b:c:' | { read -d : x; echo "[$x] $?"; }''')
t("continuation_lines", r'''printf 'one \\\ntwo\n' | { read x; echo "[$x] $?"; }; printf 'ab\\\nc' | { read -d : x; echo "[$x] $?"; }; printf 'a\\\nb\n' | { read -r x; echo "[$x]"; }''')
t("trailing_backslash_at_eof", r'''printf 'x\\' | { read v; echo "[$v] $?"; }''')
t("escapes_in_reply", r'''printf '  x\\ y  \n' | { read; echo "[$REPLY]"; }; printf '  \\t  \n' | { read -r; echo "[$REPLY]"; }''')

group("-n and -N")
t("n_counts_after_escapes", r'''printf 'a\\bc' | { read -n 3 v; echo "[$v]"; }; printf '\\\\ab' | { read -n 3 v; echo "[$v]"; }; printf 'ab\\\nc' | { read -n 3 v; echo "[$v]"; }''')
t("n_multibyte", r'''printf 'éèà' | { read -n 2 x; echo "[$x] $?"; }; printf 'éèà' | { read -N 2 x; echo "[$x] $?"; }; printf '日本語' | { read -n 1 a; read -n 1 b; echo "[$a][$b]"; }''')
t("n_stops_at_delimiter", r'''printf 'a\nbc' | { read -n 3 x; echo "[$x] $?"; read -n 3 y; echo "[$y] $?"; }; printf 'ab:c' | { read -n 5 -d : x; echo "[$x]"; }''')
t("n_short_input_status", r'''printf 'ab' | { read -n 3 x; echo "[$x] $?"; }; printf 'abc' | { read -n 3 x; echo "[$x] $?"; }; printf 'abc\n' | { read -n 0 x; echo "[$x] $?"; }''')
t("n_splits_fields", r'''printf 'a b c' | { read -n 4 x y; echo "[$x][$y]"; }''')
t("N_does_not_split", r'''printf 'a b c' | { read -N 5 x y; echo "[$x][$y] $?"; }; printf ' a b c ' | { read -N 7 x; echo "[$x] $?"; }; printf ' a b ' | { read -N 9 x; echo "[$x] $?"; }''')
t("N_ignores_delimiter", r'''printf 'a\nb' | { read -N 3 x; echo "[$x] $?"; }; printf 'a:b:c' | { read -N 4 -d : x; echo "[$x]"; }; printf 'a\\nb' | { read -N 3 x; echo "[$x]"; }''')
t("N_with_array", r'''printf 'a b c' | { read -N 5 -a arr; declare -p arr; }''')
e("bad_counts", r'''read -n -1 v; echo $?; read -N x v; echo $?''')

group("IFS")
t("whitespace_runs", r'''printf '  a  b  c  \n' | { read x y; echo "[$x][$y]"; }; printf '  a  \n' | { read x y; echo "[$x][$y]"; }''')
t("non_whitespace_separators", r'''printf 'a:b::c:\n' | { IFS=: read x y z; echo "[$x][$y][$z]"; }; printf 'a,b,\n' | { IFS=, read x y; echo "[$x][$y]"; }; printf 'a,b,,\n' | { IFS=, read x y; echo "[$x][$y]"; }''')
t("mixed_separators", r'''printf 'a : b : c\n' | { IFS=' :' read x y; echo "[$x][$y]"; }; printf 'a,b, \n' | { IFS=', ' read x y; echo "[$x][$y]"; }; printf ' :a\n' | { IFS=' :' read x y; echo "[$x][$y]"; }''')
t("empty_ifs", r'''printf ' a\tb c \n' | { IFS= read x y; echo "[$x][$y]"; }''')
t("array_fields", r'''printf 'a:b::c:\n' | { IFS=: read -a arr; declare -p arr; }; printf '  x  y  \n' | { read -a arr; declare -p arr; }; printf '\n' | { read -a arr; declare -p arr; }''')
t("array_replaces_old_value", r'''arr=(1 2 3 4); echo 'x y' | { read -a arr; declare -p arr; }''')

group("Statuses and descriptors")
t("eof_statuses", r'''printf '' | { read v; echo "[$v] $?"; }; printf 'abc' | { read v; echo "[$v] $?"; }; printf 'abc\n' | { read -d '' v; echo "[$v] $?"; }''')
t("timeout_zero", r'''echo x | { sleep 0.1; read -t 0; echo "t0 $?"; read v; echo "[$v]"; }; read -t 0 < /dev/null; echo "null $?"; read -t 1 v <<< hi; echo "$v $?"''')
e("bad_timeouts", r'''read -t -1 v; echo $?; read -t x v; echo $?''')
e("read_from_fd", r'''echo hi > f; exec 3<f; read -u 3 v; echo "[$v] $?"; read -u 3 v; echo "[$v] $?"; read -u 9 v; echo $?''')
e("readonly_name", r'''readonly ro=orig; echo new | { read ro; echo "s=$? ro=$ro"; }; echo 'a b' | { read x ro; echo "s=$? x=$x"; }''')
t("prompt_not_shown_without_terminal", r'''echo x | { read -p 'P> ' v; echo "[$v]"; }''')
e("option_errors", r'''read -d; echo $?; read -q; echo $?''')
e("invalid_names", r'''echo a | { read 'a b'; echo $?; }; echo a | { read -a 1x; echo $?; }''')

group("Names checked as bash checks them")
e("first_name_before_reading", r'''printf '1\n2\n' | { read 1x; read b; echo "b=$b"; }
read "" a <<< "1 2 3"; echo "st=$? a=$a"''')
e("later_names_as_they_are_assigned", r'''printf '1\n2\n' | { read a 1x; read b; echo "a=$a b=$b"; }
read a "" b <<< "1 2 3"; echo "st=$? a=$a b=$b"
read -N 2 c 2y <<< abc; echo "st=$? c=$c"''')
e("array_name_after_reading", r'''printf '1 2\n3\n' | { read -a 1x; read b; echo "b=$b"; }''')

group("Array elements as names")
e("array_elements_are_names", r'''read 'a[1]' <<< x; echo "$? ${a[1]}"
read 'c[1+1]' d <<< 'x y z'; echo "$? ${c[2]} $d"
declare -A h; read 'h[k]' <<< v; declare -p h
read 'a[' <<< x; echo "st=$?"''')
e("read_a_wants_a_plain_name", r'''read -a 'a[1]' <<< x; echo $?; read -a 1x <<< x; echo $?''')

group("An array read into keeps the variable's attributes")
e("read_a_and_mapfile_keep_attributes", r'''printf '1+1\nabc\n' > f2
declare -A m=([k]=v); read -a m <<< "a b"; echo "st=$?"; declare -p m; export x=1; read -a x <<< "p q"; declare -p x; declare -u U; read -a U <<< "ab cd"; declare -p U; mapfile -t U <<< "xy"; declare -p U; declare -n r=t; mapfile -t r <<< "z"; declare -p t r; readonly ro; read -a ro <<< "1"; echo "st=$?"
f() { local a=(1 2 3); mapfile -t a <<< "x"; declare -p a; local b=(1 2); read -a b <<< "p q"; declare -p b; }; f; declare -p a b
declare -i n; mapfile -t n < f2; declare -p n; mapfile -t -O 3 n < f2; declare -p n; export e; mapfile e < f2; declare -p e; mapfile -t e < f2; declare -p e
declare -i q=(5 6 7); read -a q <<< "1+1 3"; declare -p q; s=str; read -a s <<< "z"; declare -p s; declare -l L=(A B C); mapfile -t -O 1 L <<< "XY"; declare -p L''')
