"""bgboard.match"""
