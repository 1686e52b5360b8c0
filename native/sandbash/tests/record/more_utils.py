"""More utilities through the shell: egrep/fgrep, b2sum, basenc, factor, tsort,
dos2unix/unix2dos, envsubst, link/unlink, nohup/nice/stdbuf, getconf, pathchk,
shred, dc, arch/users/who/sync, ls quoting styles, od -t fL and hexdump -e."""

tools("egrep", "fgrep", "grep", "b2sum", "basenc", "factor", "tsort", "dos2unix", "unix2dos",
      "envsubst", "link", "unlink", "nohup", "nice", "stdbuf", "getconf", "pathchk", "shred",
      "dc", "arch", "users", "who", "sync", "ls", "od", "hexdump", "printf", "echo", "wc", "touch",
      "awk", "tar")

group("grep aliases and sums")
t("egrep_fgrep", r'''printf 'abc\nxyz\nq\n' | egrep 'a|x'; printf 'a|x\nab\n' | fgrep 'a|x'; echo "status=$?"''')
t("b2sum_lengths_and_check", r'''printf 'hi\n' | b2sum; printf 'hi\n' > f; b2sum -l 256 --tag f; b2sum f > s; b2sum -l 256 f >> s; b2sum -c s''')
e("b2sum_bad_length", r'''b2sum -l 12 f; echo "status=$?"''')
t("basenc_encodings", r'''printf 'hello?>' | basenc --base64url; printf hi | basenc --base2msbf; echo 6869 | basenc -d --base16; echo; printf 'hello123' | basenc --z85''')

group("Numbers and graphs")
t("factor_numbers", r'''factor 12 97 1000000016000000063; echo 18446744073709551617 | factor''')
e("factor_invalid", r'''factor 12 x; echo "status=$?"''')
t("tsort_order", r'''printf '3 1\n2 1\n5 4\n4 1\n' | tsort''')
e("tsort_loop", r'''printf 'a b\nb a\nc d\n' | tsort; echo "status=$?"''')
t("dc_scripts", r'''dc -e '2 3 + p 10 k 2 v p 16 o 255 p'; echo '5 [d p 1 - d 0 <a]sa lax' | dc''')
e("dc_errors", r'''dc -e 'p 1 0 / p'; echo "status=$?"''')

group("Files")
e("dos2unix_in_place", r'''printf 'a\r\nb\r\n' > f; dos2unix f; od -c f; unix2dos f; od -c f''')
t("dos2unix_filter", r'''printf 'x\r\ny\r\n' | dos2unix | od -c''')
t("link_unlink", r'''echo x > a; link a b; cat b; unlink a; ls''')
e("pathchk_checks", r'''pathchk a/b; echo "status=$?"; pathchk -p 'a b'; echo "status=$?"; pathchk -P ''; echo "status=$?"''')
t("shred_overwrites", r'''printf hello > f; shred -n1 f; wc -c < f; printf hello > g; shred -x -z g; od -An -c g; shred -u f; ls''')
e("cat_refuses_its_own_output", r'''echo a > f; cat f >> f; echo "status=$?"; cat f; echo b > g; cat g f >> f; echo "status=$?"; cat f; cat f > f; echo "status=$?"; wc -c < f; : > e; cat e >> e; echo "status=$?"; echo c > h; cat h 1<> h; echo "status=$?"; cat h - >> h < g; cat h''')
t("ls_quoting", r'''touch 'a b' "it's" plain; ls --quoting-style=shell; ls -Q; ls -b; ls --quoting-style=escape''')

group("Environment and running")
t("envsubst_vars", r'''export A=1 B=two; echo '$A ${B} $C.' | envsubst; echo '$A $B' | envsubst '$B'; envsubst -v '$A ${B}' ''')
t("nohup_nice_stdbuf", r'''nohup echo hi; nice -n 5 nice; nice -n 3 nice -n 2 nice; stdbuf -oL echo ok; echo "status=$?"''')
e("stdbuf_needs_mode", r'''stdbuf echo hi; echo "status=$?"''')
t("getconf_values", r'''getconf PAGE_SIZE; getconf PATH; getconf LONG_BIT; getconf NAME_MAX /''')
t("machine_facts", r'''arch; users; who; sync; echo "status=$?"''')

group("Dumps")
t("od_long_double", r'''printf '\000\000\000\000\000\000\000\200\377\077\000\000\000\000\000\000' | od -t fL''')
t("hexdump_format", r'''printf 'hello world\n' | hexdump -e '"%07.7_ax " 8/1 "%02x " "\n"'; printf 'abc' | hexdump -e '1/1 "%_p|"' ''')

group("Usage errors")
e("awk_unknown_option_prints_usage_only", r'''awk --frob 1 2>&1 | head -n 2; awk -Z 1 >/dev/null 2>&1; echo "rc=$?"''')
e("tar_unknown_option_exits_64", r'''tar --frob; echo "rc=$?"; tar -xf; echo "rc=$?"; tar; echo "rc=$?"''')
t("printf_errors_come_before_its_output", r'''printf '%d|%d\n' 1 x 2>&1; echo "rc=$?"''')
