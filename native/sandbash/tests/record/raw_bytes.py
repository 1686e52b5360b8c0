"""Bytes that are not UTF-8 (and NUL bytes) in the shell's strings: kept
byte for byte from `$( )`, `read`, `mapfile`, `$'\\xff'` and `printf -v`, each
one character long, written back unchanged by echo, printf, here-documents and
here-strings, and quoted as bash quotes them (`\\377`) by `printf %q`, `${x@Q}`,
`${x@A}`, `declare -p`, `set` and `set -x`. od shows the bytes."""
tools("od", "grep")

group("Where bytes become strings")
t("command_substitution", r'''v=$(printf 'a\xff\xe9b'); echo ${#v}; printf %s "$v" | od -An -c''')
t("read_keeps_bytes_drops_nul", r'''read x; printf %s "$x" | od -An -c; read -r -a a; printf '<%s>' "${a[@]}" | od -An -c''', stdin=b'a\xff\xe9b\0c\nd\x80 e\xfe\n')
t("read_counts_an_invalid_byte_as_a_character", r'''read -N 2 x; printf %s "$x" | od -An -c; read -n 3 y; printf %s "$y" | od -An -c''', stdin=b'\xffab\xfe\0cd\n')
t("read_nul_delimiter", r'''read -d '' x; printf %s "$x" | od -An -c''', stdin=b'a\xfeb\0c')
t("mapfile_elements_end_at_nul", r'''mapfile -t a; printf '<%s>' "${a[@]}" | od -An -c''', stdin=b'a\xff\0b\nc\xfe\n')
t("ansi_c_quotes", r'''x=$'a\xff\351\u00e9'; echo ${#x}; printf %s "$x" | od -An -c''')
t("printf_v", r'''printf -v w '\xfa%s' $'\xfb'; echo ${#w}; printf %s "$w" | od -An -c''')

group("Strings to bytes")
t("echo_and_printf", r'''x=$'\xff'; echo "$x" | od -An -c; echo -e "$x\x41" | od -An -c; printf '%s|%b|%c\n' "$x" '\xfe' "$x" | od -An -c''')
t("here_documents_and_strings", r'''x=$'a\xff'; cat <<< "$x" | od -An -c; cat <<E | od -An -c
$x
E''')
t("patterns_and_slices", r'''x=$'a\xffb'; echo "${x:1:1}" | od -An -c; case $x in a?b) echo one;; esac; [[ $x == *$'\xff'* ]] && echo has; echo "${x//$'\xff'/-}"; echo "${x%?b}"''')

group("Quoting")
t("quoting_for_reuse", r'''x=$'a\xffb \xc3\xa9 \xe9'; echo "${x@Q}"; declare -p x; printf '%q\n' "$x"; set | grep '^x='; echo "${x@A}"''')
t("arrays_and_keys", r'''a=($'\xfe' b); declare -p a; declare -A m=([$'\xfc']=1); declare -p m''')
t("control_characters_use_bash_escapes", r'''x=$'\a\b\f\v\x01\x7f\r\t\n\e'; echo "${x@Q}"; declare -p x; printf '%q\n' "$x"; echo "${x@A}"''')
e("xtrace_quotes_bytes_and_control_characters", r'''set -x; : $'a\xff' $'a\tb' $'a\rb' $'\x07'; set +x''')
