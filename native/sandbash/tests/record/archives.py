"""Archive and file-surgery utilities through the shell: zip/unzip (Info-ZIP 3.0/6.00),
patch (GNU patch 2.7) with diff -u, dd and csplit."""

tools("zip", "unzip", "printf", "echo", "seq", "touch", "rm", "ls", "diff", "patch", "dd", "csplit", "od", "wc",
      "sort", "find", "tr", "cut", "cat", "cp", "sed", "cmp", "pr", "grep")

SETUP = "printf 'hello\\n' > a.txt; seq 1 200 > b.txt; mkdir -p d/e; echo x > d/e/f; touch -d '2024-01-02 03:04:05' a.txt b.txt d/e/f d/e d; "

group("zip")
t("zip_adds_and_updates", SETUP + r'''zip x.zip a.txt b.txt; echo "rc=$?"; zip x.zip a.txt; echo "rc=$?"; zip -q x.zip b.txt; echo "rc=$?"''')
t("zip_recursive_and_levels", SETUP + r'''zip -r y.zip d; zip -0 s.zip b.txt; zip -9 n.zip b.txt; zip -D -r nd.zip d; zip -j -r j.zip d; zip r.zip d''')
t("zip_exclude_and_suffix", SETUP + r'''zip -r ex.zip d -x 'd/e/*'; zip plain a.txt; ls plain*''')
t("zip_not_matched", SETUP + r'''zip x.zip nope; echo "rc=$?"; zip x.zip nope a.txt; echo "rc=$?"; zip x.zip; echo "rc=$?"; ls''')
t("zip_delete", SETUP + r'''zip -q x.zip a.txt b.txt; zip -d x.zip a.txt; echo "rc=$?"; zip -d x.zip nope; echo "rc=$?"; unzip -l x.zip''')
t("zip_dot_stdin_and_empty", r'''mkdir t; echo 1 > t/one; touch -d '2024-01-02 03:04:05' t/one t; cd t; zip -r ../dot.zip .; cd ..; unzip -l dot.zip; echo hi | zip s.zip -; unzip -p s.zip -; zip -q e.zip t/one; zip -d e.zip t/one; echo "rc=$?"; unzip -l e.zip 2>&1; echo "rc=$?"; unzip -o dot.zip one -d o2; cat o2/one''')
t("zip_bad_args", SETUP + r'''zip -Q x.zip a.txt; echo "rc=$?"; zip x.zip -x; echo "rc=$?"; printf junk > bad.zip; zip bad.zip a.txt; echo "rc=$?"''')

group("unzip")
t("unzip_round_trip", SETUP + r'''zip -q -r x.zip a.txt b.txt d; mkdir o; cd o; unzip ../x.zip; echo "rc=$?"; cat a.txt d/e/f; wc -l < b.txt; ls -l a.txt | tr -s ' ' | cut -d' ' -f6-''')
t("unzip_list", SETUP + r'''zip -q -r x.zip a.txt b.txt d; unzip -l x.zip; unzip -l x.zip 'd/*'; unzip -l x.zip a.txt''')
e("unzip_overwrite_modes", SETUP + r'''zip -q -r x.zip a.txt d; unzip -q x.zip; echo "rc=$?"; unzip x.zip; echo "rc=$?"; unzip -n x.zip; echo "rc=$?"; unzip -o x.zip; echo "rc=$?"''')
t("unzip_prompt_answers", SETUP + r'''zip -q x.zip a.txt b.txt; mkdir o; cd o; unzip -q ../x.zip; printf 'y\nn\n' | unzip ../x.zip a.txt b.txt 2>/dev/null; echo "rc=$?"; printf 'A\n' | unzip ../x.zip 2>/dev/null; echo "rc=$?"''')
t("unzip_pipe_and_dir", SETUP + r'''zip -q -r x.zip a.txt d; unzip -p x.zip a.txt d/e/f; unzip -d out x.zip a.txt; cat out/a.txt; unzip -q -j -d flat x.zip; ls flat; unzip -d out -o x.zip d/e/f''')
e("unzip_errors", SETUP + r'''zip -q x.zip a.txt; unzip x.zip nope; echo "rc=$?"; unzip nope.zip; echo "rc=$?"; printf garbage > bad.zip; unzip bad.zip; echo "rc=$?"; unzip -d; echo "rc=$?"; unzip -d no/such x.zip; echo "rc=$?"''')
t("unzip_test", SETUP + r'''zip -q -r x.zip a.txt b.txt d; unzip -t x.zip; echo "rc=$?"; unzip -tq x.zip''')
t("unzip_exclude", SETUP + r'''zip -q -r x.zip a.txt b.txt d; rm -r a.txt b.txt d; unzip -q x.zip -x 'd/*' b.txt; ls''')

group("patch")
PSETUP = "seq 1 10 > a.txt; sed 's/^5$/five/' a.txt > b.txt; touch -d '2024-01-02 03:04:05' a.txt b.txt; diff -u a.txt b.txt > p1.diff; "
t("patch_round_trip", PSETUP + r'''patch < p1.diff; echo "rc=$?"; cat a.txt; ls''')
t("patch_origfile_and_input", PSETUP + r'''cp a.txt c.txt; patch c.txt p1.diff; echo "rc=$?"; patch -i p1.diff a.txt; echo "rc=$?"; diff a.txt b.txt && echo same''')
t("patch_offset", PSETUP + r'''(echo 0; echo 00; seq 1 10) > a.txt; patch < p1.diff; echo "rc=$?"; cat a.txt; ls''')
t("patch_fuzz", PSETUP + r'''seq 1 10 | sed 's/^2$/TWO/' > a.txt; patch < p1.diff; echo "rc=$?"; cat a.txt''')
t("patch_fuzz_and_offset", PSETUP + r'''(echo A; echo B; seq 1 10 | sed 's/^2$/TWO/') > a.txt; patch < p1.diff; echo "rc=$?"; cat a.txt''')
t("patch_failed_rejects", PSETUP + r'''seq 1 10 | sed 's/^4$/FOUR/' > a.txt; patch < p1.diff; echo "rc=$?"; ls; cat a.txt.rej; cat a.txt''')
t("patch_reversed_detected", PSETUP + r'''patch -s < p1.diff; patch < p1.diff; echo "rc=$?"; patch -N < p1.diff; echo "rc=$?"; patch -R < p1.diff; echo "rc=$?"; cat a.txt''')
t("patch_multi_hunk", r'''seq 1 30 > a; seq 1 30 | sed 's/^3$/three/; s/^25$/XXV/' > b; touch -d '2024-01-02 03:04:05' a b; diff -u a b > p; (echo A; seq 1 30 | sed 's/^24$/X/') > a; patch a < p; echo "rc=$?"; cat a.rej; seq 1 30 > a; patch a < p; echo "rc=$?"; patch -R a < p; echo "rc=$?"; seq 1 30 | diff - a && echo back''')
t("patch_tree_create_delete", r'''mkdir a b; seq 1 30 > a/f.txt; seq 1 30 | sed 's/^3$/three/' > b/f.txt; echo new > b/n.txt; echo old > a/o.txt; touch -d '2024-01-02 03:04:05' a/* b/*; diff -ruN a b > p.diff; mkdir w; cd w; seq 1 30 > f.txt; echo old > o.txt; patch -p1 --dry-run < ../p.diff; echo "rc=$?"; ls; patch -p1 -b -i ../p.diff; echo "rc=$?"; ls; cat n.txt; patch -p1 < ../p.diff; echo "rc=$?"''')
t("patch_git_style", r'''seq 1 5 > f; printf 'diff --git a/f b/f\nindex 8a1218a..e4a7548 100644\n--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n 2\n-3\n+THREE\n 4\n 5\ndiff --git a/new b/new\nnew file mode 100644\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+hi\ndiff --git a/f2 b/f2\n--- a/f2\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n' > g.diff; echo bye > f2; patch -p1 < g.diff; echo "rc=$?"; ls; cat f new''')
t("patch_missing_file", PSETUP + r'''mkdir sub; cd sub; patch < ../p1.diff; echo "rc=$?"; patch -p0 < ../p1.diff; echo "rc=$?"''')
e("patch_bad_input", r'''printf 'garbage\n' | patch; echo "rc=$?"; printf '' | patch; echo "rc=$?"; echo a > a; printf -- '--- a\n+++ a\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n' | patch; echo "rc=$?"; patch -i nope; echo "rc=$?"''')
t("patch_output_file", PSETUP + r'''patch -o out.txt a.txt < p1.diff; echo "rc=$?"; cat out.txt; cmp a.txt b.txt || echo unchanged''')
t("patch_no_newline_at_eof", r'''printf 'a\nb' > x; printf 'a\nc' > y; touch -d '2024-01-02 03:04:05' x y; diff -u x y > p; cat p; patch x < p; echo "rc=$?"; od -c x''')

group("dd")
t("dd_blocks_and_counts", r'''seq 1 1000 > in; dd if=in of=out bs=100 count=3 status=noxfer 2>&1; wc -c < out; dd if=in ibs=7 obs=13 count=5 2>&1 >/dev/null | head -2; dd if=in bs=1K skip=1 count=1 2>/dev/null | wc -c''')
t("dd_devices", r'''dd if=/dev/zero bs=1M count=2 of=z 2>&1 | head -2; wc -c < z; dd if=/dev/urandom bs=16 count=3 status=none | wc -c; dd if=/dev/zero bs=2x3 count=1 status=none | od -c''')
t("dd_conversions", r'''echo abc | dd conv=ucase status=none; echo ABC | dd conv=lcase 2>/dev/null; printf 'ab' | dd bs=4 conv=sync status=none | od -c; printf 'abcdef' | dd bs=2 skip=1 count=1 status=none; echo''')
t("dd_seek_and_notrunc", r'''seq 1 1000 | dd of=x bs=5 count=1 status=none; printf XY | dd of=x seek=1 bs=1 conv=notrunc status=none; cat x; echo; printf XY | dd of=x seek=1 bs=1 status=none; cat x; echo; printf 'ab' | dd of=y seek=2 bs=3 status=none; od -c y''')
t("dd_third_line_shape", r'''printf 'abc\n' | dd 2>&1 >/dev/null | sed -n '3s/copied, .* s, .*B\/s$/copied, T s, R\/s/p'; head -c 2000 /dev/zero | dd of=/dev/null bs=1K 2>&1 | sed -n '3s/copied, .* s, .*B\/s$/copied, T s, R\/s/p' ''')
e("dd_errors", r'''dd if=nope; echo "rc=$?"; dd bs=0; echo "rc=$?"; dd bs=1x; echo "rc=$?"; dd foo=1; echo "rc=$?"; dd conv=bogus; echo "rc=$?"; dd status=bogus; echo "rc=$?"; printf abc > in; dd count=1 skip=100 if=in status=noxfer; echo "rc=$?"; mkdir dir; dd if=in of=dir; echo "rc=$?"''')

group("csplit")
t("csplit_lines_and_regex", r'''seq 1 20 > f; csplit f 5 12; cat xx01; rm xx*; csplit f /3/ '{*}'; ls; csplit -f p -n 3 -s f /1/ '{1}'; ls p*; cat p001''')
t("csplit_skip_offsets_elide", r'''seq 1 20 > f; csplit f %5% /10/; csplit f /5/+2 /10/-1; csplit -z f /1/ '{*}'; ls; csplit -b '%03x.txt' -f part f 5; ls part*''')
e("csplit_errors", r'''seq 1 20 > f; csplit f /5/ '{2}'; echo "rc=$?"; ls; csplit -k f 5 30; echo "rc=$?"; ls; csplit f 5 3; echo "rc=$?"; csplit f; echo "rc=$?"; csplit nope 3; echo "rc=$?"; csplit f 0; echo "rc=$?"''')
t("csplit_stdin_and_suppress", r'''seq 1 20 | csplit - 3; cat xx00; seq 1 10 | csplit --suppress-matched - /5/; cat xx01''')

group("pr")
t("pr_default_pages", r'''seq 1 3 > s; seq 1 60 > l; touch -d '2024-01-02 03:04:05' s l; pr s; pr l | wc -l; pr s l | grep -n Page; : > e; pr e | wc -l''')
t("pr_options", r'''seq 1 30 > l; touch -d '2024-01-02 03:04:05' l; pr -t l | head -3; pr -h 'My Title' l | head -3; pr -l 12 l | head -9; printf 'a\fb\n' | pr -t''')
e("pr_missing_file", r'''echo x > s; pr -t s nope; echo "rc=$?"''')
t("patch_adjacent_hunks_after_fuzz", r'''printf 'l2\nl8\nl2\nl4\nl2\nl7\nl6\nl4\nl8\nl3\nl2\nl7\nl1\nl3\nl5\nl0\nl7\nl0\nl8\nl6\nl6\nl1\nl6\nl5\nl6\nl4\nl5\n' > a; printf 'l2\nl8\nXl2\nl4\nl2\nl7\nl6\nl4\nl3\nl2\nl7\nl1\nl3\nXl5\nl0\nl7\nl0\nl8\nl6\nl6\nl1\nl6\nl5\nl6\nNEW1\nl4\nl5\n' > b; touch -d '2024-01-02 03:04:05' a b; diff -U2 a b > p; printf 'l2\nl8\nl4\nl2\nl7\nl6\nl4\nl8\nl3\nl2\nl7\nl1\nl3\nl5\nl0\nl7\nl0\nl8\nTl6\nl6\nl1\nl6\nl5\nl6\nl4\nl5\n' > a; patch a < p; echo "rc=$?"; cat a''')
t("patch_insert_past_end_after_offset", r'''printf 'l7\nl6\nl3\nl1\nl6\nl8\nl0\nl6\nl6\nl1\nl3\nl7\nl4\nl6\nl4\nl8\n' > a; printf 'l7\nl6\nl3\nXl1\nl6\nl8\nl0\nl6\nl6\nl1\nl3\nl7\nl4\nl6\nl4\nNEW1\nl8\n' > b; diff -U0 a b > p; printf 'l7\nl6\nl3\nTl6\nl8\nl0\nl6\nl6\nl1\nl3\nl7\nl4\nl6\nl4\nl8\n' > a; patch a < p; echo "rc=$?"; cat a''')

tools("tar", "split", "tail")

group("tar: names from a list, recursion")
e("tar_files_from_and_no_recursion", r'''mkdir -p d/e; echo x > d/e/f; echo y > d/g; printf 'd\n\nd/g\n' > L; tar -cf a.tar --no-recursion -T L; tar -tf a.tar; tar -cf b.tar --no-recursion d d/e; tar -tf b.tar; tar -cf c.tar --no-recursion --recursion d/e; tar -tf c.tar; echo "status=$?"''')
e("tar_files_from_stdin_with_null", r'''mkdir d; echo x > d/a; echo y > 'd/b c'; printf 'd/a\0d/b c\0' | tar -cf a.tar --null -T -; tar -tf a.tar; tar -cf e.tar -T /dev/null; echo "empty=$?"; tar -tf e.tar | wc -l; tar -cf n.tar -T nope; echo "status=$?"''')

group("split -C: whole lines up to a size")
e("split_line_bytes", r'''printf 'aaaaaaaaaa\nb\nc\ndd\n' > g; split -C 4 g r; for x in r*; do printf '%s=' "$x"; od -An -c "$x" | tr -s ' '; done; seq 20 > f; split --line-bytes=10 f s; wc -c s* | tail -1; ls s* | wc -l; split -C 0 f; echo "status=$?"; split -C 2x f; echo "status=$?"; split -C 1K f k; ls k*''')
e("split_bad_numbers", r'''seq 3 > f; split -b 2x f; split -l abc f; split -n abc f; split -l 0 f; split -b -1 f; split -l 99999999999999999999999 f; split -a x f; echo "status=$?"''')
