[
  inputs: ["{mix,.formatter}.exs", "{config,lib,test,examples,bench}/**/*.{ex,exs}"]
]
