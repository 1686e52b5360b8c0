Code.require_file("support/nodes.exs", __DIR__)
ExUnit.start()
