// A global initializer that takes a __managed__ variable's address: warpforge cc rejects it, since
// the address is known only at run time.
__managed__ int counter;
int *counterAddress = &counter;

int main() { return *counterAddress; }
