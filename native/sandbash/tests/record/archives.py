"""Archive and file-surgery utilities through the shell: zip/unzip (Info-ZIP 3.0/6.00),
patch (GNU patch 2.7) with diff -u, dd and csplit."""

tools("zip", "unzip", "printf", "echo", "seq", "touch", "rm", "ls", "diff", "patch", "dd", "csplit", "od", "wc",
      "sort", "find", "tr", "cut", "cat")

SETUP = "printf 'hello\\n' > a.txt; seq 1 200 > b.txt; mkdir -p d/e; echo x > d/e/f; touch -d '2024-01-02 03:04:05' a.txt b.txt d/e/f d/e d; "

group("zip")
t("zip_adds_and_updates", SETUP + r'''zip x.zip a.txt b.txt; echo "rc=$?"; zip x.zip a.txt; echo "rc=$?"; zip -q x.zip b.txt; echo "rc=$?"''')
t("zip_recursive_and_levels", SETUP + r'''zip -r y.zip d; zip -0 s.zip b.txt; zip -9 n.zip b.txt; zip -D -r nd.zip d; zip -j -r j.zip d; zip r.zip d''')
t("zip_exclude_and_suffix", SETUP + r'''zip -r ex.zip d -x 'd/e/*'; zip plain a.txt; ls plain*''')
t("zip_not_matched", SETUP + r'''zip x.zip nope; echo "rc=$?"; zip x.zip nope a.txt; echo "rc=$?"; zip x.zip; echo "rc=$?"; ls''')
t("zip_delete", SETUP + r'''zip -q x.zip a.txt b.txt; zip -d x.zip a.txt; echo "rc=$?"; zip -d x.zip nope; echo "rc=$?"; unzip -l x.zip''')
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
