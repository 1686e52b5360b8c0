"""Permissions as a non-root user meets them (the sandbox user is uid 1000 and
owns its files): a directory without `x` cannot be entered or looked into,
without `r` not listed, without `w` gets no new names and loses none; a file
without `r` cannot be read, without `w` not written (but `sed -i` replaces it
when its directory may change); `test -r/-w/-x` and running scripts follow the
bits. Recorded with bash running as uid 1000."""

as_user(1000)
tools("ls", "rm", "mv", "cp", "touch", "chmod", "ln", "grep", "sed", "tee", "find", "wc", "truncate", "id", "cut", "install", "stat", "mkdir")

group("Directories")
e("unsearchable_directory", '''mkdir d; echo hi > d/f; chmod 000 d; cd d; echo "cd=$?"; ls d; echo "ls=$?"; cat d/f; echo "cat=$?"; echo x > d/g; echo "redir=$?"; [ -e d/f ]; echo "e=$?"; chmod 755 d; cat d/f''')
e("readable_but_not_searchable", '''mkdir d; echo hi > d/f; chmod 644 d; ls d; echo "ls=$?"; cat d/f; echo "cat=$?"; cd d; echo "cd=$?"; chmod 755 d''')
e("searchable_but_not_readable", '''mkdir d; echo hi > d/f; chmod 311 d; ls d; echo "ls=$?"; cat d/f; echo "cat=$?"; cd d && pwd | sed 's|.*/||'; chmod 755 /tmp/sbtest/d''')
e("unwritable_directory", '''mkdir d; touch d/f; chmod 555 d; touch d/z; echo "touch=$?"; rm d/f; echo "rm=$?"; mv d/f d/h; echo "mv=$?"; mkdir d/s; echo "mkdir=$?"; ln -s x d/l; echo "ln-s=$?"; ln d/f d/hl; echo "ln=$?"; cp d/f d/c; echo "cp=$?"; echo x > d/f; echo "write=$?"; chmod 755 d; ls d''')
e("nested_unsearchable_directory", '''mkdir -p a/b/c; echo x > a/b/c/f; chmod 000 a/b; ls a/b/c; echo "ls=$?"; cat a/b/c/f; echo "cat=$?"; mkdir -p a/b/c/d; echo "mkdir=$?"; chmod 755 a/b; rm -r a; echo "rm=$?"; ls''')
e("moving_out_of_an_unwritable_directory", '''mkdir src dst; touch src/f; chmod 555 src; mv src/f dst/; echo "mv=$?"; chmod 555 dst; chmod 755 src; mv src/f dst/; echo "mv=$?"; chmod 755 dst; ls src dst''')

group("Files")
e("unreadable_file", '''echo x > f; chmod 000 f; cat f; echo "cat=$?"; grep x f; echo "grep=$?"; wc -l f; echo "wc=$?"; sed p f; echo "sed=$?"; cp f g; echo "cp=$?"; source ./f; echo "source=$?"; chmod 600 f; cat f''')
e("unwritable_file", '''echo x > f; chmod 444 f; echo y > f; echo "redir=$?"; echo y >> f; echo "append=$?"; tee f <<< y; echo "tee=$?"; truncate -s 0 f; echo "truncate=$?"; cat f; rm f; echo "rm=$?"; ls''')
e("sed_in_place_replaces_an_unwritable_file", '''echo x > f; chmod 444 f; sed -i s/x/y/ f; echo "sed=$?"; cat f; ls -l f | cut -c1-10''')
t("sed_in_place_breaks_hard_links", '''echo x > a; ln a b; sed -i s/x/y/ a; cat a b''')
e("chmod_is_the_owners_way_back", '''echo x > f; chmod 000 f; chmod u+r f; cat f; mkdir d; chmod 000 d; chmod 700 d; touch d/g; echo "touch=$?"''')

group("Tests and running")
t("test_operators_follow_owner_bits", '''touch f; for m in 000 400 200 100 600 700 044 011; do chmod $m f; printf '%s:' $m; [ -r f ] && printf r; [ -w f ] && printf w; [ -x f ] && printf x; echo; done; mkdir d; chmod 000 d; [ -r d ] || echo "d not readable"; [ -x d ] || echo "d not searchable"; chmod 755 d''')
e("running_scripts_needs_the_bits", '''echo "echo hi" > s.sh; chmod 000 s.sh; bash s.sh; echo "bash=$?"; ./s.sh; echo "run=$?"; chmod 644 s.sh; ./s.sh; echo "run=$?"; bash s.sh; echo "bash=$?"; chmod 755 s.sh; ./s.sh; echo "run=$?"''')
e("bash_with_a_missing_or_directory_operand", '''bash nofile; echo "rc=$?"; mkdir dd; bash dd; echo "rc=$?"''')
t("the_user_is_uid_1000", '''id -u; id -g; echo "$UID $EUID"''')

group("Replacing read-only files")
e("install_and_cp_force_replace_them", '''echo a > s; install -m 444 s d; install -m 444 s d; echo "install=$?"; cat d; ls -l d | cut -c1-10; echo b > e; chmod 444 e; cp s e; echo "cp=$?"; cp -f s e; echo "cp-f=$?"; cat e; mkdir dd; echo b > dd/x; chmod 444 dd/x; chmod 555 dd; cp -f s dd/x; echo "cp-f=$?"; install s dd/x; echo "install=$?"; chmod 755 dd''')

group("The creation mask")
t("umask_applies_to_what_is_made", '''for m in 077 027 002 000 022; do umask $m; rm -rf f g d p; echo x > f; touch g; mkdir d; mkdir -p p/q/r; printf '%s %s %s %s %s %s\\n' $m "$(stat -c %a f)" "$(stat -c %a g)" "$(stat -c %a d)" "$(stat -c %a p)" "$(stat -c %a p/q/r)"; chmod 755 d p p/q p/q/r 2>/dev/null; done''')
t("umask_that_takes_every_bit", '''umask 777; touch g; mkdir d; mkdir -p p/q/r; umask 022; stat -c '%a %n' g d p p/q p/q/r; chmod 755 d p p/q p/q/r''')
t("umask_and_existing_files", '''echo a > f; chmod 640 f; umask 077; echo b > f; echo c >> f; stat -c %a f; echo d >> new; stat -c %a new; cp f copy; stat -c %a copy; chmod 777 f; chmod -w f; stat -c %a f; chmod +w f; stat -c %a f; mkdir -m 751 m; stat -c %a m''')
t("umask_in_a_subshell_and_a_function", '''umask 022; (umask 077; touch in_sub); touch after; f() { umask 007; touch in_f; }; f; touch after_f; stat -c '%a %n' in_sub after in_f after_f; umask''')
e("a_mask_that_takes_the_owners_write_bit", '''umask 277; echo x > f; echo more >&2 2>>g; cat f; stat -c '%a %n' f g; echo y >> f; echo "append=$?"; { echo a; echo b; } > h; cat h; stat -c %a h''')

group("Descriptors already open")
e("an_open_descriptor_writes_past_chmod", '''echo a > g; exec 3>>g; chmod -w g; echo b >&3; echo "fd=$?"; echo c >> g; echo "path=$?"; exec 3>&-; cat g''')
e("read_write_open_needs_both_bits", '''echo a > g; chmod 444 g; exec 4<>g; echo "open=$?"; chmod 222 g; exec 5<>g; echo "open=$?"; chmod 600 g; exec 6<>g; echo "open=$?"; echo z >&6; cat g''')
e("an_open_read_write_descriptor_writes_past_chmod", '''echo abc > g; exec 4<>g; chmod 000 g; echo X >&4; echo "fd=$?"; exec 4>&-; chmod 600 g; cat g''')
