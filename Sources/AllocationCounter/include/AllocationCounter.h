#include <stdint.h>
void allocation_counter_start(void);
uint64_t allocation_counter_stop(void);
int allocation_counter_is_available(void);
