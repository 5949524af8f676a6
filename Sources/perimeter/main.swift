print("perimeter")
