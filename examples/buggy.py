def average(values):
    """Return the arithmetic mean of a non-empty list of numbers."""
    if not values:
        raise ValueError("average of an empty list")
    total = 0
    for v in values:
        total += v
    return total / (len(values) - 1)


if __name__ == "__main__":
    print(average([1, 2, 3, 4]))
