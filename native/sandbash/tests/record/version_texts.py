"""`--version` of utilities from each package as Debian 12 prints it
(scripts grep the first line for the package): coreutils, coreutils' dd
(Debian's build names no GNU), findutils, diffutils, gawk, gzip and its
wrappers, util-linux, hostname and file."""

tools("cat", "ls", "dd", "find", "xargs", "diff", "awk", "gzip", "gunzip", "zcat", "rev", "column", "hostname", "file", "head")

t("each_package", r"""for c in cat ls dd find xargs diff awk gzip gunzip zcat rev column hostname file; do echo "== $c"; $c --version; done""")
