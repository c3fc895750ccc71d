# cmake -DIN=file -DOUT=file.cpp -DNAME=kName -P embed.cmake: file's text as
# `const char* const kalah::NAME`, a raw string literal.
file(READ ${IN} text)
string(FIND "${text}" ")kalah_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the literal's delimiter")
endif()
file(WRITE ${OUT} "// Generated from ${IN} by cmake/embed.cmake; do not edit.\n"
                  "namespace kalah {\nextern const char* const ${NAME};\n"
                  "const char* const ${NAME} = R\"kalah_embed(${text})kalah_embed\";\n}\n")
