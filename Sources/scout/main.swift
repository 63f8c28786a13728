print("scout")
