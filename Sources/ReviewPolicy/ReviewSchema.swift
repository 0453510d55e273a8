import PolicyCore
