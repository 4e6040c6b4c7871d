# ka_embed_files(OUT_C SYMBOL FILE...): generate a C file holding an array
# {path, contents} of the given files, so kcheck needs no install step.
# Paths are stored relative to ${CMAKE_SOURCE_DIR}.
function(ka_embed_files out_c symbol)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_c}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_c} -DSYMBOL=${symbol}
            -DROOT=${CMAKE_SOURCE_DIR} "-DFILES=${files}"
            -P ${CMAKE_SOURCE_DIR}/cmake/KaEmbedRun.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/KaEmbedRun.cmake
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
