#include <torch/headeronly/macros/Macros.h>
