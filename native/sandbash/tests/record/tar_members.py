"""tar's ways to choose and add members: -h (symlinks archived as what they
lead to, a second way to one file becoming a hard link), hard links kept and
made again on extraction, -r (append) and -u (update: only what is newer than
the archive's copy), -X/--exclude-from, and their refusals. Listings are
sorted: GNU archives a directory in readdir order, which no test may rely on."""

tools("tar", "sort", "awk", "ls", "cut", "cat", "touch", "ln", "gzip")

TREE = r"""mkdir d; echo x > d/a; echo y > d/b.log; ln -s a d/l; printf '1\n2\n' > n
"""

def tr(name, script):
    e(name, TREE + script)

group("Links")
tr("dereference", """tar chf t.tar d; tar tvf t.tar | awk '{print $1}' | sort; ln -s nowhere d/dl; tar chf h.tar d; echo "rc=$?" """)
tr("hard_links_archived_and_extracted", """ln d/a d/hard; tar cf t.tar d; tar tvf t.tar | awk '{print $1}' | sort; mkdir o; tar xf t.tar -C o; ls -l o/d/hard o/d/a | cut -c1-12; cat o/d/hard""")

group("Append and update")
tr("append", """tar cf t.tar d; tar rf t.tar n; tar tf t.tar | sort; tar rf new.tar d; echo "rc=$?"; tar tf new.tar | sort""")
tr("update_adds_only_what_is_newer", """tar cf t.tar d; echo z > d/c; touch -d 2001-01-01 d/b.log; tar uvf t.tar d; tar tf t.tar | sort""")
tr("refused_updates", """tar czf t.tgz d; tar rzf t.tgz d; echo "rc=$?"; tar rf - d > /dev/null; echo "rc=$?"; tar -c -r -f x.tar d; echo "rc=$?" """)

group("Exclusion lists")
tr("exclude_from", """printf '*.log\\nl\\n' > ex; tar -X ex -cf t.tar d; tar tf t.tar | sort; tar --exclude-from=ex -cf t2.tar d; tar tf t2.tar | sort; tar --exclude-from=nope -cf t3.tar d; echo "rc=$?" """)
