"""split's -n forms (N, K/N, l/N, l/K/N, r/N, r/K/N) with GNU's checks of
chunk numbers, -e, and --filter (each piece on the stdin of `$SHELL -c CMD`
with FILE set, the first failure ending split with its status)."""

tools("split", "ls", "head", "wc", "cat", "tr")

IN = r"""printf '1\n2\n3\n4\n5\n6\n7\n' > n
"""

def s(name, script):
    e(name, IN + script)

group("-n forms")
s("round_robin_and_chunks_to_stdout", """split -n r/3 n p; head p*; echo --; split -n 2/3 n; echo --; split -n l/2/3 n; echo --; split -n r/1/3 n; echo --; split -n 1/1 n | wc -l; ls""")
s("chunk_number_checks", """for a in 4/3 0/3 x/3 r/0 r/x l/0/3 r/4/3 x 3/; do split -n $a n; echo "rc=$?"; done""")
s("elide_empty_pieces", """printf '1\\n2\\n' > m; split -n r/4 m z; ls z*; split -n r/4 -e m y; ls y*; split -e -n 9 m q; ls q*""")

group("--filter")
s("filter_gets_each_piece", """split -l3 --filter='cat > $FILE.x; echo "$FILE"' n; ls; cat xaa.x; split -n 2 --filter='wc -c' n; split -n r/2 --filter='tr "\\n" ,; echo' n""")
s("filter_failures", """split -l2 --filter='false' n; echo "rc=$?"; split -l2 --filter='exit 3' n; echo "rc=$?"; split -n l/2/2 --filter='wc -c' n; echo "rc=$?" """)
