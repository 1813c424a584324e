# Flags for strata's own test, benchmark and example code (not imposed on users of the library).
function(strata_target_flags target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda -Xcudafe=--display_error_number>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  )
endfunction()
