// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// A plain ERC20 for the sandbox chains: Tether's USDT is 6 decimals on Ethereum and Polygon, 18 on BNB Smart Chain,
/// so the decimals are a constructor argument. The whole supply goes to the deployer (the sandbox payer).
contract SandboxUsdt {
    string public constant name = "Sandbox Tether USD";
    string public constant symbol = "USDT";
    uint8 public immutable decimals;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint8 tokenDecimals, uint256 supply) {
        decimals = tokenDecimals;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance exceeded");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    /// Many transfers in one transaction: the bench fills blocks with token Transfer events this way.
    function transferMany(address[] calldata recipients, uint256 value) external returns (bool) {
        for (uint256 i = 0; i < recipients.length; i++) _move(msg.sender, recipients[i], value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "transfer to the zero address");
        require(balanceOf[from] >= value, "balance too low");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
