# A multi-step agent-style session: seed input files, run several scripts whose
# state carries over, and read the results back out.
#
#   mix run examples/quickstart.exs

alias ExBashkit.Session

csv = """
date,user,action
2026-11-01,alice,login
2026-11-01,bob,login
2026-11-02,alice,upload
2026-11-02,carol,login
2026-11-03,alice,logout
"""

session =
  Session.new(files: %{"/data/events.csv" => csv}, cwd: "/work", env: [REPORT: "report.txt"])

step = fn title, script ->
  IO.puts("$ #{title}")

  case Session.exec(session, script) do
    {:ok, r} ->
      IO.write(r.stdout)
      if r.stderr != "", do: IO.write(:stderr, r.stderr)
      IO.puts("(exit #{r.exit_code})\n")

    {:error, message} ->
      IO.puts("error: #{message}\n")
  end
end

step.("define a helper and remember a variable", """
count_by() { tail -n +2 /data/events.csv | cut -d, -f"$1" | sort | uniq -c | sort -rn; }
total=$(tail -n +2 /data/events.csv | wc -l)
echo "loaded $total events"
""")

step.("use them in a later call", """
echo "events per user:"
count_by 2
count_by 3 > "$REPORT"
echo "report written to $PWD/$REPORT"
""")

step.("loops, arithmetic, conditionals", """
for user in alice bob carol dave; do
  n=$(grep -c ",$user," /data/events.csv)
  if [ "$n" -gt 1 ]; then echo "$user: $n events"; elif [ "$n" -eq 1 ]; then echo "$user: one event"; else echo "$user: none"; fi
done
""")

step.("errors come back as bash prints them", "cat /nope; nosuchtool; echo \"status $?\"")
step.("a script that does not parse", "if then fi")

{:ok, report} = Session.read_file(session, "/work/report.txt")
IO.puts("read back from the sandbox, /work/report.txt:\n" <> report)
{:ok, entries} = Session.list_dir(session, "/work")
IO.puts("files in /work: #{inspect(entries)}")
