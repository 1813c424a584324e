# Flags for strata's own test, benchmark and example code (not imposed on users of the library). A warning of nvcc's
# front end (say #497, a declaration that hides a template parameter) in a library header is an error here, so the
# full build of CI catches it before a user compiling with -Werror does.
function(strata_target_flags target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda -Xcudafe=--display_error_number --Werror=all-warnings>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  )
endfunction()
