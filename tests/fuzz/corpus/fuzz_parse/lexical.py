x = 'abc\x41\u00e9'
y = b = """tri
ple"""
z = (1 +
     2)
	w = 1
