defmodule ExBashkit.DoctestTest do
  use ExUnit.Case, async: true
  doctest ExBashkit
  doctest ExBashkit.Session
  doctest ExBashkit.Session.Files
  doctest ExBashkit.Session.Jobs
  doctest ExBashkit.Session.History
  doctest ExBashkit.Session.Changes
  doctest ExBashkit.Session.Snapshot
  doctest ExBashkit.Python
  doctest ExBashkit.VirtualFs
  doctest ExBashkit.Tool
end
