defmodule ExBashkit.DoctestTest do
  use ExUnit.Case, async: true
  doctest ExBashkit
  doctest ExBashkit.Session
  doctest ExBashkit.VirtualFs
  doctest ExBashkit.Tool
end
