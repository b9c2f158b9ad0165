{
  "targets": [
    {
      "target_name": "nettools",
      "sources": [
        "<!@(find native -name '*.cc' -not -path 'native/fuzz/*' -not -name '*_test.cc' | sort)"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "native"
      ],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED", "NAPI_CPP_EXCEPTIONS", "NETTOOLS_ADDON_VERSION=\"<!(node -p \"require('./package.json').version\")\""],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fexceptions", "-D_GLIBCXX_ASSERTIONS"],
      "cflags": ["-Wall", "-Wextra", "-fstack-protector-strong", "-D_FORTIFY_SOURCE=2"],
      "configurations": {
        "Sanitize": {
          "inherit_from": ["Release"],
          "cflags": ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g", "-U_FORTIFY_SOURCE"],
          "cflags_cc": ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g"],
          "ldflags": ["-fsanitize=address,undefined"]
        }
      }
    }
  ]
}
