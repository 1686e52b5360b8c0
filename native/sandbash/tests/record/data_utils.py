"""Data utilities through the shell: base64/base32, the digest sums, cksum/sum,
expr, xxd, od, hexdump, bc, shuf (seeded by --random-source) and numfmt in pipelines."""

tools("base64", "base32", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "sum",
      "expr", "xxd", "od", "hexdump", "bc", "shuf", "numfmt", "printf", "echo", "seq", "sort", "tr")

group("Encodings")
t("base64_decode_pipe", r'''echo aGk= | base64 -d''')
t("base64_round_trip", r'''printf 'hello\000world' | base64 | base64 -d | od -c''')
t("base64_wrap", r'''printf '%s' 0123456789012345678901234567890123456789012345678901234567890123456789 | base64 -w 20''')
e("base64_invalid", r'''echo 'aGk*' | base64 -d; echo " status=$?"''')
t("base32_encode", r'''printf 'abc' | base32; printf 'abc' | base32 | base32 -d''')

group("Checksums")
t("sha256_stdin", r'''printf 'abc' | sha256sum''')
t("md5_file_and_check", r'''printf 'x\n' > f; md5sum f > sums; md5sum -c sums; echo changed > f; md5sum --quiet -c sums; echo "status=$?"''')
e("sha1_check_warning", r'''printf 'a' > a; sha1sum a > s; printf 'bad line\n' >> s; echo "0000000000000000000000000000000000000000  a" >> s; sha1sum -c s; echo "status=$?"''')
t("sha512_tag", r'''printf '' | sha512sum --tag''')
t("cksum_and_sum", r'''printf 'abc' | cksum; printf 'abc' > f; cksum f; sum f; sum -s f''')

group("expr")
t("expr_arith", r'''expr 3 + 4 \* 2; x=$(expr 10 / 3); echo "$x"; expr 99999999999999999999 + 1''')
t("expr_strings", r'''expr length "hello"; expr substr hello 2 3; expr index hello l; expr abc : 'a\(.*\)'; expr abc : ab''')
e("expr_errors", r'''expr 1 / 0; echo "status=$?"; expr 1 +; echo "status=$?"; expr a = b; echo "status=$?"''')
t("expr_in_loop", r'''i=0; while [ $i -lt 3 ]; do i=$(expr $i + 1); echo $i; done''')

group("Dumps")
t("xxd_default", r'''printf 'hello world\n' | xxd''')
t("xxd_plain_round_trip", r'''printf 'bytes\001\002' | xxd -p | xxd -r -p | od -An -tx1''')
t("xxd_include", r'''printf 'ab' > my-file.bin; xxd -i my-file.bin''')
t("od_chars", r'''printf 'a\tb\n' | od -c; printf 'abcd' | od -An -tx1 -tu1''')
t("od_squeeze", r'''printf '%032d' 0 | od -tx1 | cat''')
t("hexdump_canonical", r'''printf 'hello world, hexdump\n' | hexdump -C''')

group("bc")
t("bc_basic", r'''echo '2^100; scale=3; 10/3; obase=16; 255' | bc''')
t("bc_mathlib", r'''echo 'scale=10; 4*a(1); e(1); l(10); s(0.5); c(0.5)' | bc -l''')
t("bc_functions_loops", r'''printf 'define f(n) { if (n < 2) return n; return f(n-1) + f(n-2) }\nfor (i = 0; i < 10; i++) f(i)\n' | bc''')
t("bc_long_line", r'''echo '3^200' | bc''')
e("bc_errors", r'''echo '1/0; 2 + 2' | bc; echo 'x = ; 5' | bc''')

group("shuf and numfmt")
t("shuf_seeded", r'''printf 'some random bytes for shuf to use, enough of them, really' > rs; shuf -i 1-10 --random-source=rs; seq 5 | shuf --random-source=rs; shuf -n 2 -e a b c d --random-source=rs''')
t("shuf_pipe_reservoir", r'''printf 'another source of random bytes, long enough for a few draws of shuf' > rs; seq 30 | shuf -n 4 --random-source=rs; seq 3 | shuf -n 5 --random-source=rs; seq 30 > f; shuf -n 4 --random-source=rs < f''')
t("shuf_unseeded_permutation", r'''seq 20 | shuf | sort -n | tr '\n' ' ' ''')
t("numfmt_to", r'''numfmt --to=iec 1048576; numfmt --to=si --suffix=B 1500; echo '1K 2M x' | numfmt --from=si --field=1-2''')
e("numfmt_invalid", r'''numfmt abc; echo "status=$?"''')

group("Back-references in grep and sed patterns")
tools("grep", "sed")
t("grep_bre_back_reference", r'''printf 'abab\nabba\nxyxy\nab\n' | grep '\(..\)\1'; printf 'aa\nab\n' | grep -c '\(a\)\1' ''')
t("grep_ere_back_reference", r'''printf 'abab\nabba\n' | grep -E '(ab)\1'; echo abcabc | grep -oE '(abc)\1' ''')
t("back_references_ignoring_case", r'''echo AbB | grep -i '\(b\)\1'; printf 'Aa\nab\n' | grep -ciE '(a)\1'; echo 'xAa yY' | sed -E 's/(.)\1/<&>/gI' ''')
e("grep_invalid_back_reference", r'''echo a | grep 'a\1'; echo $?''')
t("sed_address_back_reference", r'''printf 'hello\nworld\n' | sed -n '/\(l\)\1/p' ''')
t("sed_subst_back_reference", r'''echo 'aa bb cd' | sed -E 's/(.)\1/<&>/g'; echo abcabc | sed 's/\(abc\)\1/X\1/' ''')
e("sed_invalid_back_reference", r'''echo xx | sed '/\(x\)\2/d'; echo $?''')
