"""File times as scripts set and show them: `touch -h` on a symlink (the
link's own time, not its target's), `touch -d`/`-r`/`-t`, and `ls`'s
`--time-style=+FORMAT` (with a second format for recent files)."""

tools("touch", "ls", "ln", "cut", "date")

group("touch -h")
t("sets_the_links_own_time", '''touch -d "2020-01-01 00:00" f; ln -s f l; touch -h -d "2021-06-01 12:00" l; ls -l --time-style=+%F l f | cut -d" " -f6-; ls -lL --time-style=+%F l | cut -d" " -f6-''')
e("missing_operand_is_not_created", '''touch -h nolink; echo "rc=$?"; ls nolink 2>&1; ln -s nowhere dangling; touch -h -d 2019-05-05 dangling; echo "rc=$?"; ls -l --time-style=+%F dangling | cut -d" " -f6-''')
t("without_h_the_target_changes", '''touch -d 2020-01-01 f; ln -s f l; touch -h -d 2020-02-02 l; touch -d 2022-03-03 l; ls -l --time-style=+%F f l | cut -d" " -f6-''')

group("ls --time-style=+FORMAT")
t("one_format", '''touch -d "2020-01-02 03:04:05" f; ls -l --time-style='+%Y/%m/%d %H.%M.%S' f | cut -d" " -f6-; ls -l --time-style=+%s f | cut -d" " -f6-''')
t("old_and_recent_formats", '''touch -d "2001-01-01" old; touch new; ls -l --time-style=$'+OLD %Y\\nNEW' old new | cut -d" " -f6-''')
t("touch_reference_and_stamp", '''touch -t 202001020304.05 a; touch -r a b; ls -l --time-style=+%FT%T a b | cut -d" " -f6-''')
