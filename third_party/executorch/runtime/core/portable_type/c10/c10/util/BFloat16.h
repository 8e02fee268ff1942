#include <torch/headeronly/util/BFloat16.h>
