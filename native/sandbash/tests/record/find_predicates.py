"""find's predicates and actions of findutils 4.9 that have meaning in the
sandbox: -lname/-ilname, -samefile (a symlink is a file of its own unless -L),
-links with hard links, -newerXY with file and date references (one date
parser with `date -d`), -daystart, -fprint/-fprint0/-fprintf/-fls (the files
made while the expression is read), -quit, and the -D/-O options."""

tools("find", "sort", "od", "head", "wc", "ln", "touch", "cat", "ls", "cut")

TREE = r"""mkdir -p d/e; echo x > d/a; echo y > d/e/b; ln -s a d/l; ln d/a d/h; touch -d "2020-01-01" d/old; touch -d "2030-01-01" d/new
"""

def f(name, script):
    e(name, TREE + script)

group("Names of links")
f("lname_and_ilname", """find d -lname a; find d -ilname A; find d -lname '*' -o -name e | sort; find d -lname 'x*'""")

group("Same file and links")
f("samefile_hard_links_not_symlinks", """find d -samefile d/a | sort; echo --; find d -samefile d/l; echo --; find -L d -samefile d/a | sort""")
f("samefile_of_a_missing_file", """find d -samefile nope; echo "rc=$?"; ln -s nowhere d/dangling; find d -samefile d/dangling""")
f("links_counts", """find d -links 2 -type f | sort; echo --; find d -links +1 | sort; echo --; find d -links -2 -type f | sort; ls -l d/a | cut -c1-12""")

group("Times")
f("newer_with_file_references", """find d -newer d/old | sort; echo --; find d -newermm d/old ! -newermm d/new | sort; echo --; find d -newerma d/new""")
f("newer_with_dates", """find d -newermt 2025-01-01 | sort; echo --; find d -newermt '2019-12-31 23:00' ! -newermt 2021-01-01; find d -newerat 'jan 1 2029' -name new""")
f("newer_errors", """find d -newermt garbage; echo "rc=$?"; find d -newerXY d/old; echo "rc=$?"; find d -newertm d/old; echo "rc=$?"; find d -newerBt 2025-01-01; echo "rc=$?" """)
f("daystart", """touch -d yesterday d/y; touch -d '2 days ago' d/y2; find d -daystart -mtime 1; find d -daystart -mtime -3 -name 'y*' | sort; find d -daystart -mtime 0 -name a""")

group("Output files")
f("fprint_and_kin", """find d -fprint out -name a; sort out; echo --; find d -name a -fprintf out2 '%p %s\\n'; cat out2; find d -name b -fprint0 out3; od -c out3 | head -2; find d -name a -fls out4; wc -w < out4""")
f("files_are_made_while_parsing", """find d -name nomatch -fprint empty; ls empty; wc -c < empty; echo old > again; find d -name b -fprint again -fprint again; cat again""")
f("fprint_to_stdout", """find d -name a -fprint /dev/stdout; find d -name b -fprintf /dev/stdout '[%f]\\n'""")

group("Stopping and options")
f("quit", """find d -name a -print -quit; echo "rc=$?"; find d -quit; echo "rc=$?" """)
f("debug_and_optimisation_options", """find -O2 d -name a; find -O3 -L d -name a; find -D stat d -name a 2>/dev/null""")
