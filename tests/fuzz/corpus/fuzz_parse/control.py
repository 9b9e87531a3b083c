def f(x, y=2, *, z=3):
    if x < y <= 3 and not z:
        return -x ** 2 // y 